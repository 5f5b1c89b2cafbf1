import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import { COLLECT_AFTER_CHARS, collectGarbage } from '../../memory.ts';
import { CompiledOnce } from '../../db/compiled-once.ts';
import { hasPostgresCode, madeMeanwhile, POSTGRES_ERRORS } from '../../db/postgres-errors.ts';
import type { Database, DB } from '../../db/schema.ts';
import { ANALYZED_ONCE_CHARS, type TermCounts, termCounts, termCountsInSlices, type TextTerms, textTerms } from './analyzer.ts';
import { DocumentPaths } from './document-paths.ts';
import { filterCandidates, filterExclusions, filterSql } from './filter.ts';
import { bm25Sql, canBeAmongK, commonBound, kthOffset, rankHits, RANK_SLACK, rankingTerms, withBestRows } from './rank.ts';
import type { FilterNode } from './filter-node.ts';
import { contentFromOfRow, contentFromSql, contentOfRow, contentSql, type ContentSlice, pageContent, snippetContent, wholeTextSql } from './slices.ts';
import type { DocumentHit, Granularity, PageHit, SearchIndex, SearchRequest, SnippetHit } from './types.ts';
import { collectionKeys } from './postgres-keys.ts';
import {
  BLOCK_POSTINGS,
  compactPostingsStep,
  createPostingsTable,
  dropOrphanedBlockSizes,
  GRANULARITY_CODES,
  list,
  mergeBlocksStep,
  ONE_PAGE_DOCUMENT,
  PendingBlock,
  postingsTable,
  readsCodes,
  writeBlock,
} from './postgres-blocks.ts';
import { FreshStatistics, IndexRebuilds, vacuumStaleTables } from './postgres-upkeep.ts';
import { type PostgresVectors, postgresVectors } from './postgres-vectors.ts';
import { FUSION_DEPTH, hybridHits, type VectorEmbedder } from './vectors.ts';

/** A search's values, the parameters of its statement. */
interface SearchValues extends Record<string, unknown> {
  collectionId: string;
  /** Its postings' key (migration 011). */
  collectionKey: number;
  terms: string[];
  weights: number[];
  /** Rows ranked: k + RANK_SLACK. */
  limit: number;
  kthOffset: number;
}

/**
 * Collections' keys kept per server; past this many, the oldest read goes first. Postings name
 * their collection by a bigint key (migration 011); none yet, no postings.
 */
const KEYS_KEPT = 10_000;

/** Stands for the postings table in a statement compiled once for every collection (withPostingsOf). */
const POSTINGS_STANDIN = sql.table('search_postings_standin');

/** A statement compiled with POSTINGS_STANDIN, made to read this collection's postings. */
function withPostingsOf<Row>(collectionKey: number, query: CompiledQuery<Row>): CompiledQuery<Row> {
  return CompiledQuery.raw(query.sql.replaceAll('"search_postings_standin"', `"search_postings_${collectionKey}"`), [...query.parameters]) as CompiledQuery<Row>;
}

/**
 * The postings tables (and keys) these documents' collections lack, each made in a transaction
 * of its own before the indexing one: two indexing transactions making one table together would
 * have the second fail once the first commits. A table another server made meanwhile is taken.
 */
async function createPostingsTablesOf(db: Kysely<DB>, documentIds: string[]): Promise<void> {
  const { rows } = await sql<{ collection_id: string }>`select distinct collection_id from documents where id = any(${documentIds}::text[])`.execute(db);
  const keys = await collectionKeys(db, rows.map((row) => row.collection_id));
  for (const { key } of [...keys.values()].filter((key) => !key.hasPostings)) {
    try {
      await createPostingsTable(db, key);
    } catch (error) {
      // unique_violation or duplicate_table: made by another server at the same moment.
      if (!madeMeanwhile(error)) throw error;
    }
  }
}

/**
 * Drops the postings or vectors tables (`prefix`, postingsTable or vectorsTable) of collections
 * no longer there: their key goes with the collection (a foreign key's cascade), so the tables are
 * found by their names, and a vectors table's HNSW indexes go with it. One still in use past the
 * lock timeout (a vacuum of it) is left for the next time (applyDeletions): the collection is
 * gone already, and nothing searches it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dropOrphanedTables(db: Kysely<any>, prefix: 'search_postings_' | 'search_vectors_'): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname ~ ${`^${prefix}[0-9]+$`}
      and not exists (select 1 from search_collections k where ${prefix}::text || k.key = c.relname)`.execute(db);
  for (const { name } of rows) {
    try {
      await sql`drop table if exists ${sql.table(name)}`.execute(db);
    } catch (error) {
      if (!hasPostgresCode(error, POSTGRES_ERRORS.lockNotAvailable)) throw error;
    }
  }
}

/** What the searches of one database handle share: compiled statements, collection keys, document paths, vectors. */
interface Searcher {
  context: SearchContext;
  paths: DocumentPaths;
  vectors: PostgresVectors;
}

function topDocuments({ context, vectors }: Searcher, request: SearchRequest): Promise<DocumentHit[]> {
  return ranked<DocumentHit & { weight: number }>(
    request,
    (r) =>
      search(
        context,
        r,
        'documents',
        (values, kept, postings) => sql<DocumentHit & { weight: number }>`
        ${withBestRows(values.kthOffset, best('documents', values, kept, postings))}
        select d.id as "documentId", d.path as path, d.metadata as metadata, t.weight as weight
        from t join documents d on d.seq = t."rowSeq" where ${canBeAmongK}`,
      ),
    () => vectors.nearest('documents', GRANULARITY_CODES, request, sql`d.id as "documentId", d.path as path, d.metadata as metadata`, sql`join documents d on d.seq = t.row_seq`),
    (hit) => [hit.path],
  );
}

async function topPages({ context, paths, vectors }: Searcher, request: Parameters<SearchIndex['topPages']>[0]): Promise<PageHit[]> {
  const content = request.includeContent ? contentOfRow('p') : sql`null`;
  const from = request.includeContent ? contentFromOfRow('p') : sql`0`;
  const lexical = async (r: SearchRequest) =>
    paths.withPaths(
      await search(context, r, `pages ${request.includeContent} ${request.includeMetadata}`, (values, kept, postings) => {
        const document = documentColumns(request.includeMetadata, 'p');
        return sql<PageHit & ContentSlice & { weight: number }>`
        ${withBestRows(values.kthOffset, best('pages', values, kept, postings))}
        select ${document.columns}, p.page_index as "pageIndex", ${content} as content, p.start_index as "sliceStart", p.end_index as "sliceEnd", ${from} as "sliceFrom", t.weight as weight
        from t join pages p on p.seq = t."rowSeq" ${document.join} where ${canBeAmongK}`;
      }),
    );
  const columns = sql`${documentOf('p.page_index as "pageIndex"', request.includeMetadata)}, ${content} as content, p.start_index as "sliceStart", p.end_index as "sliceEnd", ${from} as "sliceFrom"`;
  const join = sql`join pages p on p.seq = t.row_seq join documents d on d.id = p.document_id`;
  const hits = await ranked<PageHit & ContentSlice & { weight: number }>(request, lexical, () => vectors.nearest('pages', GRANULARITY_CODES, request, columns, join), (hit) => [hit.path, hit.pageIndex]);
  return hits.map((hit) => pageContent(hit, request.includeContent));
}

async function topSnippets({ context, paths, vectors }: Searcher, request: Parameters<SearchIndex['topSnippets']>[0]): Promise<SnippetHit[]> {
  const lexical = async (r: SearchRequest) =>
    paths.withPaths(
      await search(context, r, `${request.granularity} ${request.includeMetadata}`, (values, kept, postings) => {
        const document = documentColumns(request.includeMetadata, 'c');
        return sql<SnippetHit & { sliceFrom: number; weight: number }>`
        ${withBestRows(values.kthOffset, best(request.granularity, values, kept, postings))}
        select ${document.columns}, c.start_index as "startIndex", c.end_index as "endIndex",
               c.page_start as "pageStart", c.page_end as "pageEnd", ${contentSql('d', 'c')} as content, ${contentFromSql('d', 'c')} as "sliceFrom", t.weight as weight
        from t join chunks c on c.seq = t."rowSeq" ${document.join} where ${canBeAmongK}`;
      }),
    );
  const columns = sql`${documentOf('c.start_index as "startIndex"', request.includeMetadata)}, c.end_index as "endIndex", c.page_start as "pageStart", c.page_end as "pageEnd", ${contentSql('d', 'c')} as content, ${contentFromSql('d', 'c')} as "sliceFrom"`;
  const join = sql`join chunks c on c.seq = t.row_seq join documents d on d.seq = c.document_seq`;
  const hits = await ranked<SnippetHit & { sliceFrom: number; weight: number }>(request, lexical, () => vectors.nearest(request.granularity, GRANULARITY_CODES, request, columns, join), (hit) => [hit.path, hit.startIndex]);
  return hits.map(snippetContent);
}

/** The terms found in at least `share` of the granularity's rows, each counted only up to that bound. */
async function commonTerms({ database, keys }: SearchContext, ...[collectionId, granularity, terms, share]: Parameters<SearchIndex['commonTerms']>): ReturnType<SearchIndex['commonTerms']> {
  const collectionKey = terms.length === 0 ? null : (keys.kept(collectionId) ?? (await keys.read(collectionId)));
  if (collectionKey === null) return new Set();
  const { rows } = await sql<{ n: string | number }>`
    select coalesce(sum(rows), 0) as n from search_stats where collection_id = ${collectionId} and granularity = ${granularity}`.execute(database.db);
  const bound = commonBound(Number(rows[0]?.n ?? 0), share);
  const common = await sql<{ term: string }>`
    select t.term from unnest(${[...terms]}::text[]) as t(term)
    where (select coalesce(sum(cardinality(p.row_seqs)), 0) from ${postingsTable(collectionKey)} p
      where ${readsCodes(sql`p.granularity`, granularity)} and p.term = t.term) >= ${bound}`.execute(database.db);
  return new Set(common.rows.map((row) => row.term));
}

/**
 * PostgreSQL: BM25 over postings of the analyzer's terms (migration 007), the engine's formula
 * (rank.ts) as on SQLite, so both backends rank the same data the same way. Statistics are per collection and granularity:
 * a table of postings per collection (postingsTable, migration 019), in blocks of (granularity,
 * term) holding each posting's row, term frequency and row length (createPostingsTable,
 * migration 025), read for the query's terms only (their count is the document frequency), and
 * `search_stats`,
 * rows and tokens added up from deltas that the indexing transaction and deletions append
 * (triggers on `search_rows`), so concurrent indexing never waits on one counter row. Postings
 * and rows belong to their document (`documents.seq`) and go with it: a trigger on `documents`
 * deletes them in the deleting transaction (migration 011).
 */
export function postgresSearchIndex(database: Database, embedder: VectorEmbedder | null = null): SearchIndex {
  const { db } = database;
  const vectors = postgresVectors(db, embedder);
  const indexRebuilds = new IndexRebuilds();
  const statistics = new FreshStatistics();
  const keys = new CollectionKeys(database);
  const context: SearchContext = { database, compiled: new CompiledOnce<SearchValues>(), keys };
  const paths = new DocumentPaths((documentIds) => onePipelined(database, compiledPaths(db, documentIds)));
  const searcher: Searcher = { context, paths, vectors };

  return {
    topDocuments: (request) => topDocuments(searcher, request),
    topPages: (request) => topPages(searcher, request),
    topSnippets: (request) => topSnippets(searcher, request),
    commonTerms: (...args) => commonTerms(context, ...args),
    async indexDocuments(documentIds) {
      // Vectors first: the provider down, nothing of the batch is written before it is handed back.
      await vectors.index(documentIds);
      await createPostingsTablesOf(db, documentIds);
      await db.transaction().execute((trx) => indexPostgresDocuments(trx, documentIds));
      // The batch is indexed: statistics not refreshed now are refreshed by a later batch or idle upkeep.
      await statistics.step(db).catch(() => {});
    },
    // Its key now, in a transaction of its own: the first indexing transactions of a new collection
    // then find it instead of inserting it together (the second would wait for the first to end).
    // Statistics come with the first rows.
    async createCollection(collectionId) {
      await sql`insert into search_collections (collection_id) values (${collectionId}) on conflict do nothing`.execute(db);
    },
    // The collections' rows are gone: whatever index is left without one goes, theirs and any earlier drop's.
    dropCollections: () => dropWhatDeletedCollectionsLeft(db),
    async applyDeletions() {
      await dropWhatDeletedCollectionsLeft(db);
      await foldStats(db);
    },
    // Small blocks merged and their space given back (postgres-blocks.ts); the planner's statistics, and index-only scans' visibility map.
    // Then, with an embedder, documents whose vectors are missing or another embedder's.
    upkeepStep: async () =>
      (await mergeBlocksStep(db)) || (await compactPostingsStep(db)) || (await vacuumStaleTables(db)) || (await indexRebuilds.step(db)) || vectors.reembedStep(),
    vectorSearch: async () => ((await vectors.available()) ? 'approximate' : 'unavailable'),
  };
}

/**
 * The k best hits: BM25's, or with a query vector, BM25's and the nearest rows' fused
 * (vectors.ts); `lexical` gives rows with their paths, `nearest` the vector rows.
 */
async function ranked<Row extends { weight: number }>(
  request: SearchRequest,
  lexical: (request: SearchRequest) => Promise<Row[]>,
  nearest: () => Promise<Row[]>,
  place: (hit: Row) => (string | number)[],
): Promise<(Omit<Row, 'weight'> & { score: number })[]> {
  if (!request.vector) return rankHits(await lexical(request), request.k, place);
  const [lexicalRows, vectorRows] = await Promise.all([lexical({ ...request, k: Math.max(request.k, FUSION_DEPTH) }), nearest()]);
  return hybridHits(lexicalRows, vectorRows, request.k, place);
}

/** A vector hit's document columns, then `alias` (its own first column). */
const documentOf = (alias: string, includeMetadata: boolean) =>
  sql`d.id as "documentId", d.path as path, ${includeMetadata ? sql`d.metadata` : sql`null`} as metadata, ${sql.raw(alias)}`;

/** What a search reads with: the handle, unfiltered searches' statements compiled once per shape (compiled-once.ts), the collections' keys. */
interface SearchContext {
  database: Database;
  compiled: CompiledOnce<SearchValues>;
  keys: CollectionKeys;
}

/**
 * A collection's key never changes once made, so a server keeps those it has read and a search
 * hands its key to the statement: a lookup less in each, which saves the database CPU on every
 * search.
 */
class CollectionKeys {
  private readonly keys = new Map<string, number>();

  constructor(private readonly database: Database) {}

  /** The key kept for a collection, if any: read without awaiting, as a search's every call does. */
  kept(collectionId: string): number | undefined {
    return this.keys.get(collectionId);
  }

  forget(collectionId: string): void {
    this.keys.delete(collectionId);
  }

  /**
   * A collection's key as the database has it, kept; null while it has none or no postings table
   * yet (nothing indexed). Callers look among the kept ones first (`collectionKeys.get(id) ??`),
   * without awaiting: a search's every call.
   */
  async read(collectionId: string): Promise<number | null> {
    const [row] = await onePipelined(
      this.database,
      sql<{ key: string }>`select key from search_collections where collection_id = ${collectionId} and to_regclass('search_postings_' || key) is not null`.compile(this.database.db),
    );
    if (!row) return null;
    if (this.keys.size >= KEYS_KEPT) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(collectionId, Number(row.key));
    return Number(row.key);
  }
}

/**
 * A single statement on a pipelined connection, handed to pg as it is: Kysely's executor around
 * it (a connection object and a few promises a query) is work on the HTTP thread for every search,
 * which then serves fewer.
 */
async function onePipelined<Row>({ db, searchPools }: Database, query: CompiledQuery<Row>): Promise<Row[]> {
  if (!searchPools) return (await db.executeQuery(query)).rows;
  const client = await searchPools.pipelined.connect();
  try {
    return (await client.query<Row>(query.sql, query.parameters)).rows;
  } finally {
    client.release();
  }
}

/**
 * A search's rows, on the searches' own connections (database.ts), so they never hold every
 * connection: pipelined ones for a single statement, a pool for a filtered search's two.
 * Its statements are prepared once per connection and planned once, generically (knowing neither
 * the collection nor the terms): every shape below is index lookups whatever those are (the
 * postings of each term through a lateral subquery that the planner cannot turn into a scan of
 * the collection), and planning each query anew cost as much as running it. A filtered search
 * first finds how many documents pass the filter (passingKept), which decides how its statement
 * keeps only their rows (each form a subplan, never a join, so a generic plan is as good as one
 * for the values); none passing, no rows. Planned for its values, in a transaction, a filtered
 * search was slower, whether few or many of the documents passed: planning cost more than it saved.
 * `shape` names what changes the statement's text: the kind of search and its options.
 */
async function search<Row>(
  { database, compiled, keys }: SearchContext,
  request: SearchRequest,
  shape: string,
  statement: (values: SearchValues, kept: RawBuilder<unknown> | null, postings: RawBuilder<unknown>) => RawBuilder<Row>,
): Promise<Row[]> {
  const { db, filteredSearchesDb } = database;
  const terms = rankingTerms(request);
  if (terms.length === 0) return [];
  const collectionKey = keys.kept(request.collectionId) ?? (await keys.read(request.collectionId));
  if (collectionKey === null) return [];
  const values: SearchValues = {
    collectionId: request.collectionId,
    collectionKey,
    terms: terms.map(({ term }) => term),
    weights: terms.map(({ weight }) => weight),
    limit: request.k + RANK_SLACK,
    kthOffset: kthOffset(request.k),
  };
  try {
    if (!request.filter) return await onePipelined(database, withPostingsOf(collectionKey, compiled.compiled(db, shape, (slots) => statement(slots, null, POSTINGS_STANDIN), values)));
    const filter = request.filter;
    return await (filteredSearchesDb ?? db).connection().execute(async (connection) => {
      const kept = await passingKept(connection, request.collectionId, filter);
      return kept ? (await statement(values, kept, postingsTable(collectionKey)).execute(connection)).rows : [];
    });
  } catch (error) {
    // Its postings dropped with it (another server deleted the collection meanwhile): nothing to find.
    if (!hasPostgresCode(error, POSTGRES_ERRORS.undefinedTable)) throw error;
    keys.forget(request.collectionId);
    return [];
  }
}

/**
 * The best rows of one granularity: (rowSeq, weight), at most k + slack, best first, by the
 * engine's BM25 (rank.ts).
 * A filter's `kept` (null without one) drops matched rows of other documents after the document
 * frequencies are counted; only then are the postings' documents read. Each term's part is
 * multiplied by its weight (1 for a plain query; relevance feedback's otherwise). Values are only
 * interpolated (compiled once, compiled-once.ts).
 * A term's document frequency is its blocks' postings counted from their arrays' sizes: a window
 * over its unnested postings buffered them all, a cost that grew with the term's commonness. It is
 * an aggregate in its lateral, not a scalar subquery, which PostgreSQL would copy into each of the
 * four places the idf reads it, counting every term's blocks four times. Its
 * idf and factor are computed once in `query_terms`, so a posting costs only its own part
 * (bm25Sql.part): the postings of common terms are most of a slow search's work.
 */
function best(granularity: Granularity, values: SearchValues, kept: RawBuilder<unknown> | null, postings: RawBuilder<unknown>): RawBuilder<unknown> {
  const codes = readsCodes(sql`b.granularity`, granularity);
  // A document's row is its document: one-page documents' postings name their page as row (ONE_PAGE_DOCUMENT).
  const rowSeqs = granularity === 'documents' ? sql`b.document_seqs` : sql`b.row_seqs`;
  const documentSeqs = kept ? sql`b.document_seqs` : sql`null::bigint[]`;
  return sql`
    with stats as materialized (
      select coalesce(sum(rows), 0)::float8 as n, coalesce(sum(tokens), 0)::float8 as tokens
      from search_stats where collection_id = ${values.collectionId} and granularity = ${granularity}
    ),
    query_terms as materialized (
      select t.term, ${bm25Sql.termFactor(sql`t.weight`, bm25Sql.idf(sql`r.ratio`))} as factor, ${bm25Sql.perLength(sql`s.n`, sql`s.tokens`)} as per_length
      from unnest(${values.terms}::text[], ${values.weights}::float8[]) as t(term, weight) cross join stats s
      cross join lateral (select coalesce(sum(cardinality(b.row_seqs)), 0)::float8 as df from ${postings} b where ${codes} and b.term = t.term) d
      cross join lateral (select ${bm25Sql.idfRatio(sql`s.n`, sql`d.df`)} as ratio) r
    ),
    weighted as (
      select p.row_seq, p.document_seq, p.part
      from query_terms q cross join lateral (
        -- offset 0: kept a subquery, so each term's blocks are one primary-key range.
        select x.row_seq, x.document_seq, ${bm25Sql.part(sql`q.factor`, sql`x.tf`, sql`x.length`, sql`q.per_length`)} as part
        from ${postings} b cross join lateral unnest(${rowSeqs}, ${documentSeqs}, b.tfs::float8[], b.lengths::float8[]) as x(row_seq, document_seq, tf, length)
        where ${codes} and b.term = q.term offset 0
      ) p
    )
    select w.row_seq as "rowSeq", sum(w.part) as weight
    from weighted w
    ${kept ?? sql``}
    group by w.row_seq
    order by weight desc, w.row_seq
    limit ${values.limit}`;
}

/**
 * A page or snippet hit's document columns: its id from the row (`alias`), and its path and metadata
 * from the documents table only when metadata is asked for; else the path comes from the server's
 * DocumentPaths and the metadata is null.
 */
function documentColumns(includeMetadata: boolean, alias: 'p' | 'c'): { columns: RawBuilder<unknown>; join: RawBuilder<unknown> } {
  // A snippet names its document by seq: the document is joined for its id (and its text, contentSql).
  if (alias === 'c') {
    return {
      columns: includeMetadata ? sql`d.id as "documentId", d.path as path, d.metadata as metadata` : sql`d.id as "documentId", null as path, null as metadata`,
      join: sql`join documents d on d.seq = c.document_seq`,
    };
  }
  return includeMetadata
    ? { columns: sql`d.id as "documentId", d.path as path, d.metadata as metadata`, join: sql`join documents d on d.id = p.document_id` }
    : { columns: sql`p.document_id as "documentId", null as path, null as metadata`, join: sql`` };
}

/** The paths of these documents (those still there). */
const compiledPaths = (db: Kysely<DB>, documentIds: string[]) =>
  sql<{ id: string; path: string }>`select id, path from documents where id = any(${documentIds}::text[])`.compile(db);

/**
 * Most documents passing a filter that a search looks up among (passingKept); past this many,
 * each matched row's document is checked instead. Handed over as a constant array, planning one
 * costs time for every element, so a long one costs more than checking each row.
 */
const PASSING_LOOKED_UP_MOST = 10_000;

/**
 * A filtered search's condition on its matched rows (`w.document_seq`), or null when no document
 * passes. The documents passing are found through the metadata index (filter.ts), never by a scan
 * of the documents of every organization:
 * - When that index answers the filter exactly, they are counted there (up to the most looked
 *   up), and the statement keeps the rows whose document is among them, a subplan PostgreSQL
 *   hashes once: cheaper than fetching them first and handing them back as a constant array.
 * - When it answers a superset, each candidate is looked up by its seq and checked, once, and
 *   those passing are handed to the statement as a constant array (checked in the statement,
 *   each would be checked twice).
 * Either way the planner never joins with them: taken for one document (statistics not yet
 * updated after an ingestion) it compared each posting with every passing document; reached
 * through their postings' document index, a filter passing many documents read every one of
 * their postings. Both cost many times the search itself. When the index cannot answer the
 * filter, or more than PASSING_LOOKED_UP_MOST pass, each matched row's document is checked.
 */
async function passingKept(trx: Kysely<DB>, collectionId: string, filter: FilterNode): Promise<RawBuilder<unknown> | null> {
  const checked = sql`where exists (select 1 from documents d where d.seq = w.document_seq and ${filterSql(filter)})`;
  const failing = filterExclusions(filter, collectionId);
  if (failing) return failingExcluded(trx, failing, checked);
  const candidates = filterCandidates(filter, collectionId);
  if (!candidates) return checked;
  if (candidates.exact) {
    const passing = await countedUpTo(trx, candidates.seqs);
    if (passing === 0) return null;
    // coalesce(... in ...): kept a subplan rather than made a join; PostgreSQL hashes it when it
    // expects the documents to fit in work_mem, as 10,000 do many times over. A document may
    // count more than once (several values of a list), which only makes the bound stricter.
    return passing > PASSING_LOOKED_UP_MOST ? checked : sql`where coalesce(w.document_seq in (${candidates.seqs}), false)`;
  }
  const { rows } = await sql<{ seq: string | number }>`
    select d.seq from documents d where d.seq = any(array(select document_seq from (${candidates.seqs}) c)) and d.collection_id = ${collectionId} and ${filterSql(filter)}
    limit ${PASSING_LOOKED_UP_MOST + 1}`.execute(trx);
  if (rows.length === 0) return null;
  if (rows.length > PASSING_LOOKED_UP_MOST) return checked;
  return sql`where w.document_seq = any(${rows.map((row) => Number(row.seq))}::bigint[])`;
}

/**
 * A `$ne` or `$nin` filter's condition: the documents failing it (filterExclusions) are excluded
 * by a hashed lookup as in passingKept, rather than each matched row's document checked: faster
 * for the usual queries, and only a little slower for the rare search whose terms match most
 * rows. Past PASSING_LOOKED_UP_MOST failing, each matched row is checked.
 */
async function failingExcluded(trx: Kysely<DB>, failing: RawBuilder<unknown>, checked: RawBuilder<unknown>): Promise<RawBuilder<unknown>> {
  const count = await countedUpTo(trx, failing);
  if (count === 0) return sql``;
  return count > PASSING_LOOKED_UP_MOST ? checked : sql`where not coalesce(w.document_seq in (${failing}), false)`;
}

/** How many rows `seqs` selects, counted up to one past PASSING_LOOKED_UP_MOST. */
async function countedUpTo(trx: Kysely<DB>, seqs: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from (select 1 from (${seqs}) c limit ${PASSING_LOOKED_UP_MOST + 1}) c`.execute(trx);
  return rows[0]!.n;
}

interface SourceRow {
  seq: number;
  collection_id: string;
  document_id: string;
  /** A document's text; a page's or snippet's, sliced from it (empty as read). */
  text: string;
  /** Where the row's text starts and ends in its document's text. */
  start: number;
  end: number;
}

/**
 * Postings of these documents' text, pages and snippets (as the database holds them now) in
 * place of their older ones; run inside a transaction. Also the migrations' rebuild.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function indexPostgresDocuments(trx: Kysely<any>, requestedIds: string[]): Promise<void> {
  if (requestedIds.length === 0) return;
  const locked = await lockDocuments(trx, requestedIds);
  if (locked.length === 0) return;
  const documentIds = locked.map((row) => row.id);
  const documentSeq = new Map(locked.map((row) => [row.id, row.seq]));
  const collectionKey = await collectionKeysOf(trx, locked);
  await deletePostingsOf(trx, locked, collectionKey);
  const sources = rowSources(documentIds, locked.map((row) => row.seq));
  // A document's text analysed once: its pages and snippets are slices of it (analyzer.ts).
  const texts = new Map<string, TextTerms>();
  const documentTexts = new Map<string, string>();
  const termsOf = async (granularity: Granularity, row: SourceRow): Promise<TermCounts> => {
    if (granularity === 'documents') {
      documentTexts.set(row.document_id, row.text);
      if (row.text.length > ANALYZED_ONCE_CHARS) return termCountsInSlices(row.text);
      const terms = textTerms(row.text);
      texts.set(row.document_id, terms);
      return termCounts(terms.all());
    }
    row.text = (documentTexts.get(row.document_id) ?? '').slice(Number(row.start), Number(row.end));
    const text = texts.get(row.document_id);
    return text ? termCounts(text.slice(Number(row.start), row.text)) : termCountsInSlices(row.text);
  };
  /** Whether a row of a large document was read (its text COLLECT_AFTER_CHARS or longer), as on SQLite. */
  let large = false;
  const pageRows = (await sources.get('pages')!.execute(trx)).rows;
  const onlyPages = onlyPageOfEach(pageRows);
  /** Tokens of the pages whose postings are their document's (ONE_PAGE_DOCUMENT), by document id. */
  const sharedPages = new Map<string, number>();
  /** One granularity's postings and rows. */
  const indexGranularity = async (granularity: Granularity, rows: SourceRow[]): Promise<void> => {
    /** Each document's rows of this granularity: how many, and their tokens. */
    const counts = new Map<number, RowCounts>();
    /** Postings not yet written, by collection key and code: each collection's go to its own table. */
    const pending = new Map<string, PendingBlock>();
    for (const row of rows) {
      large ||= row.text.length >= COLLECT_AFTER_CHARS;
      const document = documentSeq.get(row.document_id)!;
      const shared = granularity === 'pages' ? sharedPages.get(row.document_id) : undefined;
      const { count, frequencies } = shared === undefined ? await termsOf(granularity, row) : { count: shared, frequencies: null };
      const counted = counts.get(document) ?? { collection: row.collection_id, rows: 0, tokens: 0 };
      counts.set(document, { ...counted, rows: counted.rows + 1, tokens: counted.tokens + count });
      if (!frequencies) continue;
      const page = granularity === 'documents' ? onlyPages.get(row.document_id) : undefined;
      const whole = page !== undefined && Number(page.start) === 0 && Number(page.end) === row.text.length;
      if (whole) sharedPages.set(row.document_id, count);
      const collection = collectionKey.get(row.collection_id)!;
      const code = whole ? ONE_PAGE_DOCUMENT : GRANULARITY_CODES[granularity];
      const key = `${collection} ${code}`;
      let block = pending.get(key);
      if (!block) pending.set(key, (block = new PendingBlock(collection, code)));
      block.add(whole ? page.seq : row.seq, document, count, frequencies);
      if (block.postings >= BLOCK_POSTINGS) {
        await writeBlock(trx, block);
        pending.delete(key);
      }
    }
    for (const block of pending.values()) await writeBlock(trx, block);
    await writeRowCounts(trx, granularity, counts);
  };
  for (const [granularity, source] of sources) {
    // A large document's rows and terms for this granularity are garbage once it returns, several
    // times the document's size, that V8 would keep beside the next granularity's while its heap can
    // grow: collected now, as on SQLite (sqlite-file.ts).
    // A batch of small documents (up to 16 MB in all) is not worth a full collection four times.
    await indexGranularity(granularity, granularity === 'pages' ? pageRows : (await source.execute(trx)).rows);
    if (large) collectGarbage();
  }
}

/** The page of each document that has only one, by document id. */
function onlyPageOfEach(pages: SourceRow[]): Map<string, SourceRow> {
  const pageCounts = new Map<string, number>();
  for (const page of pages) pageCounts.set(page.document_id, (pageCounts.get(page.document_id) ?? 0) + 1);
  return new Map(pages.filter((page) => pageCounts.get(page.document_id) === 1).map((page) => [page.document_id, page]));
}

/**
 * The rows of each granularity of these documents (their ids and seqs); pages and snippets as
 * offsets into their document's text (slices.ts). Snippets are found by their documents' seqs:
 * joined from the documents' ids, a table never analyzed during a long ingestion was planned as a
 * scan of every snippet, and ingestion slowed as the collection grew.
 */
function rowSources(documentIds: string[], documentSeqs: number[]): Map<Granularity, RawBuilder<SourceRow>> {
  const offsets = sql`seq, collection_id, document_id, '' as text, start_index as start, end_index as "end"`;
  const snippets = (granularity: 'coarse' | 'fine') =>
    sql<SourceRow>`select c.seq, d.collection_id, d.id as document_id, '' as text, c.start_index as start, c.end_index as "end"
      from chunks c join documents d on d.seq = c.document_seq where c.document_seq = any(${documentSeqs}::bigint[]) and c.granularity = ${granularity}`;
  return new Map([
    ['documents', sql<SourceRow>`select seq, collection_id, id as document_id, coalesce(${wholeTextSql('documents')}, '') as text, 0 as start, 0 as "end" from documents where id = any(${documentIds}::text[])`],
    ['pages', sql<SourceRow>`select ${offsets} from pages where document_id = any(${documentIds}::text[])`],
    ['coarse', snippets('coarse')],
    ['fine', snippets('fine')],
  ]);
}

interface RowCounts {
  collection: string;
  rows: number;
  tokens: number;
}

/** One granularity's rows counted by document (migration 027), written to `search_rows`; its triggers add them to the statistics. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function writeRowCounts(trx: Kysely<any>, granularity: Granularity, counts: Map<number, RowCounts>): Promise<void> {
  if (counts.size === 0) return;
  const values = [...counts.values()];
  await sql`insert into search_rows (document_seq, granularity, collection_id, rows, tokens)
    select d, ${granularity}, c, r, t
    from unnest(${list([...counts.keys()])}::bigint[], ${values.map((value) => value.collection)}::text[], ${list(values.map((value) => value.rows))}::int[], ${list(values.map((value) => value.tokens))}::bigint[]) as x(d, c, r, t)`.execute(trx);
}

/**
 * Locks these documents against deletion until the transaction ends: postings have no foreign key
 * (one check per posting), so a deletion either comes first (the document is left out here) or
 * waits, and its trigger then deletes what this transaction wrote.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function lockDocuments(trx: Kysely<any>, documentIds: string[]): Promise<{ id: string; seq: number; collection_id: string }[]> {
  const { rows } = await sql<{ id: string; seq: number; collection_id: string }>`
    select id, seq, collection_id from documents where id = any(${documentIds}::text[]) for key share`.execute(trx);
  return rows;
}

/** The key of each of these documents' collections, by collection id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function collectionKeysOf(trx: Kysely<any>, locked: { collection_id: string }[]): Promise<Map<string, number>> {
  const keys = await collectionKeys(trx, [...new Set(locked.map((row) => row.collection_id))]);
  return new Map([...keys].map(([collectionId, { key }]) => [collectionId, key]));
}

/** These documents' rows and postings, deleted before they are written again. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function deletePostingsOf(trx: Kysely<any>, locked: { seq: number; collection_id: string }[], collectionKey: Map<string, number>): Promise<void> {
  await sql`delete from search_rows where document_seq = any(${locked.map((row) => row.seq)}::bigint[])`.execute(trx);
  // The tables were made before this transaction (createPostingsTablesOf): a CREATE ... IF NOT
  // EXISTS here would lock the table against a deletion waiting for blocks this transaction holds.
  for (const key of new Set(collectionKey.values())) {
    const seqs = locked.filter((row) => collectionKey.get(row.collection_id) === key).map((row) => row.seq);
    await sql`select search_remove_postings(${key}, ${seqs}::bigint[])`.execute(trx);
  }
}

/**
 * Postings built anew from the stored text, pages and snippets of every indexed document (or of
 * one collection's, or of those that have none): the migration to this index, and the way back
 * from a lost one.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function rebuildPostgresIndex(db: Kysely<any>, collectionId?: string, { missingOnly = false } = {}): Promise<void> {
  const inCollection = collectionId === undefined ? sql`` : sql`and collection_id = ${collectionId}`;
  // Only documents without any index row (every indexed document has one per granularity).
  const missing = missingOnly ? sql`and not exists (select 1 from search_rows r where r.document_seq = documents.seq)` : sql``;
  for (let after = ''; ; ) {
    const { rows } = await sql<{ id: string }>`
      select id from documents where index_status = 'indexed' ${inCollection} ${missing} and id > ${after} order by id limit 64`.execute(db);
    if (rows.length === 0) break;
    const documentIds = rows.map((row) => row.id);
    await createPostingsTablesOf(db, documentIds);
    // A batch a transaction, unless the caller's transaction holds them all.
    await (db.isTransaction ? indexPostgresDocuments(db, documentIds) : db.transaction().execute((trx) => indexPostgresDocuments(trx, documentIds)));
    after = rows.at(-1)!.id;
  }
}

/**
 * Folds and the deletion of dropped collections' statistics take turns: a sum a fold inserts is
 * invisible to a deletion running beside it, and would outlive its collection.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function takeStatsLock(trx: Kysely<any>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('search stats', 0))`.execute(trx);
}

/**
 * Folds each collection's statistic deltas into one row. The rows one statement deletes are the
 * rows it sums, so deltas appended meanwhile wait for the next fold, neither lost nor counted twice.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function foldStats(db: Kysely<any>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await takeStatsLock(trx);
    await sql`
      with crowded as (select collection_id, granularity from search_stats group by collection_id, granularity having count(*) > 1),
      gone as (delete from search_stats s using crowded c where s.collection_id = c.collection_id and s.granularity = c.granularity returning s.*)
      insert into search_stats (collection_id, granularity, rows, tokens)
      select collection_id, granularity, sum(rows), sum(tokens) from gone group by collection_id, granularity`.execute(trx);
  });
}

/** The statistics, postings and vector tables and block sizes of collections whose rows are gone. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dropWhatDeletedCollectionsLeft(db: Kysely<any>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await takeStatsLock(trx);
    await sql`delete from search_stats s where not exists (select 1 from collections c where c.id = s.collection_id)`.execute(trx);
  });
  await dropOrphanedTables(db, 'search_postings_');
  await dropOrphanedTables(db, 'search_vectors_');
  await dropOrphanedBlockSizes(db);
}
