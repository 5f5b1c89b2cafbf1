import SQLite from 'better-sqlite3';
import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { CompiledOnce } from '../../db/compiled-once.ts';
import { beforeDestroy } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { analyze } from './analyzer.ts';
import { type FilterCandidates, filterCandidates, filterSql } from './filter.ts';
import { bm25Idf, bm25Sql, bm25TermWeight, canBeAmongK, commonBound, kthOffset, rankHits, RANK_SLACK, rankingTerms, withBestRows } from './rank.ts';
import { defaultReaderThreads, openReaderPool, type ReaderPool } from './reader-pool.ts';
import { annBase, HNSWLIB_PATH } from './sqlite-ann.ts';
import { ftsTable, type Granularity, lengthsTable, openSearchWriter, type SearchWriter, searchDirectory, searchFilePath, tokenRange, vectorsTable } from './sqlite-file.ts';
import type { FilterNode } from './filter-node.ts';
import { contentFromSql, contentSql, type ContentSlice, pageContent, slicedContent, snippetContent, wholeTextSql } from './slices.ts';
import type { DocumentHit, PageHit, SearchIndex, SearchRequest, SnippetHit, WeightedTerm } from './types.ts';
import { FUSION_DEPTH, hybridHits, type VectorEmbedder, vectorBytes } from './vectors.ts';

/**
 * SQLite: each collection's FTS5 tables and statistics in its own search file (see
 * sqlite-file.ts), its matches weighed by the engine's BM25 (rank.ts) over that collection's rows
 * only, and only the best k (and a few more, for ties: rank.ts) joined to their rows. Searches run on a pool of
 * reader threads (reader-pool.ts): read-only connections (one per recently searched collection,
 * its file attached) with prepared statements kept, so a query costs little more than the FTS5
 * match itself and several run at once, off the HTTP thread. The search files are written by
 * whoever indexes.
 */
export function sqliteSearchIndex(database: Database, embedder: VectorEmbedder | null = null): SearchIndex {
  // Opened by the first write: ingestion, or the server deleting collections.
  let writer: SearchWriter | null = null;
  const searchWriter = (): SearchWriter => {
    if (writer) return writer;
    const opened = openSearchWriter(sqlitePathOf(database), embedder);
    beforeDestroy(database, () => opened.close());
    writer = opened;
    return opened;
  };
  // Reader threads, opened by the first search (an ingestion thread never searches), closed with the handle.
  let readers: ReaderPool | null = null;
  const reader = (): ReaderPool => (readers ??= openReader(database));
  const directory = () => searchDirectory(sqlitePathOf(database));
  /** `setup` runs once on each reader connection before the query (a temporary table it reads). */
  const run: Run = async <Row>(collectionId: string, query: RawBuilder<unknown> | CompiledQuery<unknown>, setup?: string): Promise<Row[]> => {
    const { sql: text, parameters } = 'compile' in query ? query.compile(database.db) : query;
    try {
      // A collection without a search file (nothing indexed yet, or deleted meanwhile) matches nothing.
      return await reader().all<Row>(searchFilePath(sqlitePathOf(database), collectionId), text, parameters, setup);
    } catch (error) {
      // Nor does one whose file is being created this instant (its tables come in one transaction).
      if (error instanceof SQLite.SqliteError && /no such (fts5 )?table/.test(error.message)) return [];
      throw error;
    }
  };
  const compiledOnce = new CompiledOnce<UnfilteredValues>();
  const statements: Statements = (shape, build, values) => compiledOnce.compiled(database.db, shape, build, values);

  return {
    topDocuments: (request) => ranked<DocumentHit & { weight: number }>(run, statements, directory(), DOCUMENT_ROWS, request, (hit) => [hit.path]),
    async topPages(request) {
      const hits = await ranked<PageHit & ContentSlice & { weight: number }>(run, statements, directory(), pageRows(request.includeContent), request, (hit) => [hit.path, hit.pageIndex]);
      return hits.map((hit) => pageContent(hit, request.includeContent));
    },
    async topSnippets(request) {
      const hits = await ranked<SnippetHit & { sliceFrom: number; weight: number }>(run, statements, directory(), snippetRows(request.granularity), request, (hit) => [hit.path, hit.startIndex]);
      return hits.map(snippetContent);
    },
    commonTerms: (...args) => commonTerms(run, ...args),
    indexDocuments: (documentIds) => searchWriter().index(documentIds),
    // A collection's search file comes with its first indexing: an empty collection costs no file.
    createCollection: async () => {},
    dropCollections: (collectionIds) => searchWriter().dropCollections(collectionIds),
    applyDeletions: () => searchWriter().index([]),
    vectorSearch: async () => (HNSWLIB_PATH ? 'approximate' : 'exact'),
    // Merges first; then, with an embedder, vectors missing or of another embedder, then their nearest-rows indexes.
    upkeepStep: async () => (writer ? await writer.mergeStep() : false) || (embedder ? (await searchWriter().vectorStep()) || searchWriter().annStep() : false),
  };
}

/** A query on a collection's reader connection (sqliteSearchIndex's `run`): `setup` runs once on each connection before it. */
type Run = <Row>(collectionId: string, query: RawBuilder<unknown> | CompiledQuery<unknown>, setup?: string) => Promise<Row[]>;

/**
 * The unfiltered searches' statements, compiled once per shape (compiled-once.ts), as on
 * PostgreSQL: they run thousands of times a second, and compiling their nested templates each
 * time was work on the HTTP thread.
 */
type Statements = (shape: string, build: (values: UnfilteredValues) => RawBuilder<unknown>, values: UnfilteredValues) => CompiledQuery<unknown>;
type UnfilteredValues = { collectionId: string; terms: string };

/** The rows a search ranks: their granularity, how a hit's rowid joins to them, and the columns it reads. */
interface RowsOf {
  /** What names the statement's text among those of other rows (with k). */
  shape: string;
  granularity: Granularity;
  join: (rowid: string) => RawBuilder<unknown>;
  columns: RawBuilder<unknown>;
}

const DOCUMENT_ROWS: RowsOf = {
  shape: 'documents',
  granularity: 'documents',
  join: (rowid) => sql`join documents d on d.seq = ${sql.raw(rowid)}`,
  columns: sql`d.id as documentId, d.path as path, d.metadata as metadata`,
};

const pageRows = (includeContent: boolean): RowsOf => ({
  shape: `pages:${includeContent}`,
  granularity: 'pages',
  join: (rowid) => sql`join pages p on p.seq = ${sql.raw(rowid)} join documents d on d.id = p.document_id`,
  columns: sql`d.id as documentId, d.path as path, d.metadata as metadata, p.page_index as pageIndex,
    ${includeContent ? contentSql('d', 'p') : sql`null`} as content, p.start_index as sliceStart, p.end_index as sliceEnd,
    ${includeContent ? contentFromSql('d', 'p') : sql`0`} as sliceFrom`,
});

const snippetRows = (granularity: Granularity): RowsOf => ({
  shape: granularity,
  granularity,
  join: (rowid) => sql`join chunks c on c.seq = ${sql.raw(rowid)} join documents d on d.seq = c.document_seq`,
  columns: sql`d.id as documentId, d.path as path, d.metadata as metadata, c.start_index as startIndex, c.end_index as endIndex,
    c.page_start as pageStart, c.page_end as pageEnd, ${contentSql('d', 'c')} as content, ${contentFromSql('d', 'c')} as sliceFrom`,
});

/**
 * The k best rows: by BM25 alone, or with a query vector, the lexical and vector rankings (each
 * FUSION_DEPTH deep) fused (vectors.ts) when the collection has vectors of its embedder.
 */
async function ranked<Row extends { weight: number }>(
  run: Run,
  statements: Statements,
  directory: string,
  rows: RowsOf,
  request: SearchRequest,
  place: (hit: Row) => (string | number)[],
): Promise<(Omit<Row, 'weight'> & { score: number })[]> {
  if (!request.vector) return rankHits(await top<Row>(run, statements, rows, request), request.k, place);
  const [lexical, vector] = await Promise.all([
    top<Row>(run, statements, rows, { ...request, k: Math.max(request.k, FUSION_DEPTH) }),
    nearest<Row>(run, directory, rows, request),
  ]);
  return hybridHits(lexical, vector, request.k, place);
}

/**
 * The rows of a granularity nearest the request's vector among those of its embedder, best
 * first, FUSION_DEPTH of them (or k), scored exactly on a reader thread (vector_similarity,
 * reader-pool.ts): the candidates of the collection's nearest-rows index (sqlite-ann.ts) and the
 * rows newer than it (a graph loaded newer than its record read yields rows of both: the bound
 * keeps each once), or every row when it has none. Filtered, every vector's row is joined and
 * filtered before the best are taken: the index's candidates could all fail the filter.
 */
async function nearest<Row extends { weight: number }>(
  run: Run,
  directory: string,
  { granularity, join, columns }: RowsOf,
  request: SearchRequest,
): Promise<Row[]> {
  const { values, embedder: key } = request.vector!;
  const depth = Math.max(request.k, FUSION_DEPTH);
  const table = sql.raw(`search.${vectorsTable(granularity)}`);
  const similarity = sql`vector_similarity(v.vector, ${vectorBytes(values)})`;
  if (request.filter) {
    return run<Row>(
      request.collectionId,
      sql`select ${columns}, ${similarity} as weight from ${table} v ${join('v.rowid')} where v.embedder = ${key} and ${filterSql(request.filter)} order by weight desc limit ${depth}`,
    );
  }
  const base = annBase(directory, request.collectionId, granularity, key);
  const candidates = sql`select value from json_each(ann_nearest(${base}, ${vectorBytes(values)}, ${ANN_CANDIDATES * depth}))`;
  return run<Row>(
    request.collectionId,
    sql`select ${columns}, t.weight as weight from (
      select v.rowid as rowid, ${similarity} as weight from ${table} v where v.rowid in (${candidates}) and v.rowid <= ann_through(${base}) and v.embedder = ${key}
      union all select v.rowid as rowid, ${similarity} as weight from ${table} v where v.rowid > ann_through(${base}) and v.embedder = ${key}
      order by weight desc limit ${depth}) t ${join('t.rowid')}`,
  );
}

/**
 * Candidates read from an index per row a search needs, all scored exactly: the graph's order is
 * approximate, and a few times as many make the exact best ones nearly always among them.
 */
const ANN_CANDIDATES = 4;

/**
 * The best rows of one granularity joined to their rows, best first, by the engine's BM25
 * (rank.ts). Unfiltered, only the top rows are joined; filtered, the passing documents' rows
 * are weighed alone when they are few (selectiveTop), else the best matches are joined to their
 * documents (bestPassing), and every match only when too few of those pass.
 */
async function top<Row extends { weight: number }>(
  run: Run,
  statements: Statements,
  rows: RowsOf,
  request: SearchRequest,
): Promise<Row[]> {
  const { shape, granularity, join, columns } = rows;
  const terms = rankingTerms(request);
  if (terms.length === 0) return [];
  const limit = rowsLimit(request.k);
  const setup = vocabularies(granularity);
  if (request.filter) {
    const passing = (await selectiveTop<Row>(run, rows, request, terms)) ?? (await bestPassing<Row>(run, rows, request, terms));
    if (passing) return passing;
    return run<Row>(request.collectionId, passingJoined(rows, request, sql`(${weighed(granularity, request.collectionId, termRowsJson(terms))})`), setup);
  }
  const statement = statements(
    `${shape}:${request.k}`,
    (values) => bestJoined(request.k, sql`${weighed(granularity, values.collectionId, values.terms)} order by weight desc limit ${limit}`, join, columns),
    { collectionId: request.collectionId, terms: termRowsJson(terms) },
  );
  return run<Row>(request.collectionId, statement, setup);
}

/**
 * A filter passing many rows: the best matches, FILTERED_DEPTH times as many as the rows needed,
 * joined to their documents and filtered. Joining every match to drop those failing cost as much
 * as weighing them, doubling the cost of a search of common terms. When too few of the best pass,
 * once more, as deep as the share that passed asks; null when that share is too small to go by,
 * or still too few pass: the caller joins every match.
 */
async function bestPassing<Row extends { weight: number }>(run: Run, rows: RowsOf, request: SearchRequest, terms: WeightedTerm[]): Promise<Row[] | null> {
  const needed = request.k + RANK_SLACK;
  const depth = needed * FILTERED_DEPTH;
  const first = await passingAmongBest<Row>(run, rows, request, terms, depth);
  if (first.everyMatch || first.rows.length >= needed) return first.rows;
  // Under an eighth of those needed: too few to judge the share passing by, and a second pass
  // finding too few again would have the caller weigh every match a third time.
  if (first.rows.length * 8 < needed) return null;
  // Twice as deep as the share that passed asks, up to a power of two: the reader threads keep a statement per text.
  const deeper = 2 ** Math.ceil(Math.log2((2 * depth * needed) / first.rows.length));
  const second = await passingAmongBest<Row>(run, rows, request, terms, deeper);
  return second.everyMatch || second.rows.length >= needed ? second.rows : null;
}

/**
 * The best `depth` matches of a filtered search that pass its filter, best first, and whether
 * those were every match. Joined to a row of their count, so it comes back even when none pass.
 * `depth` as a literal, as rowsLimit: bound as a parameter, FTS5 plans without it and the
 * statement runs much slower.
 */
async function passingAmongBest<Row extends { weight: number }>(
  run: Run,
  rows: RowsOf,
  request: SearchRequest,
  terms: WeightedTerm[],
  depth: number,
): Promise<{ rows: Row[]; everyMatch: boolean }> {
  const { granularity } = rows;
  const found = await run<Row & { matches: number }>(
    request.collectionId,
    sql`with t as materialized (${weighed(granularity, request.collectionId, termRowsJson(terms))} order by weight desc limit ${sql.lit(depth)})
      select p.*, c.matches from (select count(*) as matches from t) c left join (${passingJoined(rows, request, sql`t`)}) p order by p.weight desc`,
    vocabularies(granularity),
  );
  const passing = found.filter((row) => row.weight !== null).map(({ matches: _, ...row }) => row as unknown as Row);
  // No row at all: the collection has no search file yet, so nothing matches.
  return { rows: passing, everyMatch: (found[0]?.matches ?? 0) < depth };
}

/** The best k + slack of `matches` (a relation of rowid and weight) whose documents pass the request's filter, with their rows' columns. */
const passingJoined = ({ join, columns }: RowsOf, request: SearchRequest, matches: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`select ${columns}, t.weight as weight from ${matches} t ${join('t.rowid')} where ${filterSql(request.filter!)} order by t.weight desc limit ${rowsLimit(request.k)}`;

/**
 * A selective filter (issue #11 pt 3): when the documents passing it, found through the metadata
 * index, hold few rows of this granularity (SELECTIVE_ROWS, ANALYZED_IN_TERMS), only those rows are
 * weighed, here, with the collection's statistics (the engine's: rows, tokens, row lengths, and
 * the query terms' document frequencies from the postings) and their text analyzed again,
 * instead of weighing every match of the query in the collection and dropping those the filter
 * refuses. Null when the filter is not selective (or not one the metadata index can answer):
 * the caller weighs all matches then.
 */
async function selectiveTop<Row extends { weight: number }>(
  run: Run,
  { granularity, join, columns }: RowsOf,
  request: SearchRequest,
  terms: WeightedTerm[],
): Promise<Row[] | null> {
  const candidates = filterCandidates(request.filter!, request.collectionId);
  if (!candidates) return null;
  const rowsOfPassing = passingRows(granularity, request.filter!, request.collectionId, candidates);
  const frequencies = await run<{ term: string; doc: number; rows: number; tokens: number }>(
    request.collectionId,
    sql`select q.term, sum(v.doc) as doc, s.rows, s.tokens from (${queryTermRows(termRowsJson(terms))}) q ${tokensIn(granularity, 'row', 'q')}
      cross join search.stats s where s.granularity = ${granularity} group by q.key`,
    vocabularies(granularity),
  );
  // No query term in the collection: nothing matches.
  if (frequencies.length === 0) return [];
  const { rows: n, tokens } = frequencies[0]!;
  const averageLength = tokens / n;
  // Weighing the passing rows here must cost less than weighing the matches and joining them,
  // at worst every one, to drop those that fail the filter.
  const matches = frequencies.reduce((total, { doc }) => total + doc, 0);
  const most = Math.min(SELECTIVE_ROWS, Math.floor((ANALYZED_IN_TERMS * matches) / Math.max(1, averageLength)));
  if (most === 0) return null;
  // The passing documents' rows, counted without reading them, as far as that budget.
  const [counted] = await run<{ rows: number }>(request.collectionId, sql`select count(*) as rows from (${rowsOfPassing} limit ${most + 1})`);
  if (!counted || counted.rows > most) return null;
  // Rows of the passing documents that the index holds (rows just written and not yet indexed are not there).
  const rows = await run<{ rowid: number; content: string | null; start: number; end: number; contentFrom: number; length: number }>(
    request.collectionId,
    sql`select r.rowid, r.content, r.start, r.end, r.contentFrom, l.length from (${rowTexts(granularity, rowsOfPassing)}) r
      join ${sql.raw(`search.${lengthsTable(granularity)}`)} l on l.rowid = r.rowid`,
  );
  const idf = new Map(frequencies.map(({ term, doc }) => [term, bm25Idf(n, doc)]));
  const scored: { rowid: number; weight: number }[] = [];
  for (const row of rows) {
    const counts = new Map<string, number>();
    for (const term of analyze(row.end < 0 ? (row.content ?? '') : slicedContent(row.content, row.start, row.end, row.contentFrom))) counts.set(term, (counts.get(term) ?? 0) + 1);
    let weight = 0;
    for (const { term, weight: queryWeight } of terms) {
      const tf = counts.get(term);
      if (tf) weight += queryWeight * idf.get(term)! * bm25TermWeight(tf, row.length, averageLength);
    }
    if (weight > 0) scored.push({ rowid: row.rowid, weight });
  }
  scored.sort((a, b) => b.weight - a.weight || a.rowid - b.rowid);
  const best = scored.slice(0, request.k + RANK_SLACK);
  if (best.length === 0) return [];
  const weights = new Map(best.map(({ rowid, weight }) => [rowid, weight]));
  const found = await run<Row & { found_rowid: number }>(
    request.collectionId,
    sql`select ${columns}, t.value as found_rowid from json_each(${JSON.stringify(best.map(({ rowid }) => rowid))}) t ${join('t.value')}`,
  );
  return found.map(({ found_rowid, ...row }) => ({ ...row, weight: weights.get(found_rowid)! }) as unknown as Row);
}

/** Rows counted in the engine's statistics, each term's rows summed from the vocabulary. */
async function commonTerms(run: Run, ...[collectionId, granularity, terms, share]: Parameters<SearchIndex['commonTerms']>): ReturnType<SearchIndex['commonTerms']> {
  if (terms.length === 0) return new Set();
  const counted = await run<{ n: number }>(collectionId, sql`select rows as n from search.stats where granularity = ${granularity}`);
  const bound = commonBound(counted[0]?.n ?? 0, share);
  const rows = await run<{ term: string; n: number }>(
    collectionId,
    sql`select q.term, sum(v.doc) as n from (${queryTermRows(termRowsJson(terms.map((term) => ({ term, weight: 1 }))))}) q ${tokensIn(granularity, 'row', 'q')} group by q.key`,
    vocabularies(granularity),
  );
  return new Set(rows.filter((row) => row.n >= bound).map((row) => row.term));
}

/** A granularity's FTS5 vocabulary tables on a reader connection: `row` (token, rows holding it) and `instance` (token, row). */
const vocabulary = (granularity: Granularity, kind: 'row' | 'instance'): string => `v${kind[0]}_${ftsTable(granularity)}`;
const vocabularies = (granularity: Granularity): string =>
  (['row', 'instance'] as const)
    .map((kind) => `create virtual table if not exists temp.${vocabulary(granularity, kind)} using fts5vocab(search, '${ftsTable(granularity)}', '${kind}');`)
    .join(' ');

/** The query's terms as queryTermRows reads them: term, weight and the range of its tokens (tokenRange), in JSON. */
const termRowsJson = (terms: WeightedTerm[]): string => JSON.stringify(terms.map(({ term, weight }) => [term, weight, ...tokenRange(term)]));

/** The query's terms (termRowsJson) as rows: key (one per term), term, weight, and the range of its tokens (low, high). */
const queryTermRows = (termsJson: string): RawBuilder<unknown> =>
  sql`select key, value ->> 0 as term, value ->> 1 as weight, value ->> 2 as low, value ->> 3 as high from json_each(${termsJson})`;

/**
 * The tokens (`v`) of each term of `terms` (a relation of queryTermRows' columns) in a vocabulary.
 * A cross join, so SQLite reads each term's range rather than the whole vocabulary.
 */
const tokensIn = (granularity: Granularity, kind: 'row' | 'instance', terms: string): RawBuilder<unknown> =>
  sql`cross join ${sql.raw(`temp.${vocabulary(granularity, kind)}`)} v on v.term >= ${sql.raw(terms)}.low and v.term < ${sql.raw(terms)}.high`;

/**
 * Every row of a granularity matching these terms, with its BM25 weight (rowid, weight): each
 * term's document frequency summed over its tokens in FTS5's row vocabulary, its frequency in each
 * row read from its token there in the instance vocabulary (both public, and exact after
 * contentless deletes), the row's length and the collection's rows and tokens from the engine's
 * statistics (sqlite-file.ts). Rows deleted but not yet removed from the search file are left out
 * (they would take places in the k).
 */
function weighed(granularity: Granularity, collectionId: string, termsJson: string): RawBuilder<unknown> {
  return sql`
    with q as (${queryTermRows(termsJson)}),
    s as (select rows as n, ${bm25Sql.perLength(sql`rows`, sql`tokens`)} as per_length from search.stats where granularity = ${granularity}),
    i as (select q.low, q.high, ${bm25Sql.termFactor(sql`q.weight`, bm25Sql.idf(bm25Sql.idfRatio(sql`s.n`, sql`sum(v.doc)`)))} as factor
          from q ${tokensIn(granularity, 'row', 'q')} cross join s group by q.key),
    m as (select v.doc as rowid, i.factor, cast(substr(v.term, length(i.low) + 1) as integer) as tf from i ${tokensIn(granularity, 'instance', 'i')})
    select m.rowid, sum(${bm25Sql.part(sql`m.factor`, sql`m.tf`, sql`l.length`, sql`s.per_length`)}) as weight
    from m join ${sql.raw(`search.${lengthsTable(granularity)}`)} l on l.rowid = m.rowid cross join s
    where m.rowid not in (select row_id from search_deletions where collection_id = ${collectionId} and fts_table = ${granularity})
    group by m.rowid`;
}

/** Rows (rowid, content as contentSql reads it, start, end, from) of these seqs of a granularity. */
function rowTexts(granularity: Granularity, seqs: RawBuilder<unknown>): RawBuilder<unknown> {
  // A document's row is its whole text (an end of -1).
  if (granularity === 'documents') return sql`select d.seq as rowid, ${wholeTextSql('d')} as content, 0 as start, -1 as "end", 0 as "contentFrom" from documents d where d.seq in (${seqs})`;
  if (granularity === 'pages') {
    return sql`select p.seq as rowid, ${contentSql('d', 'p')} as content, p.start_index as start, p.end_index as "end", ${contentFromSql('d', 'p')} as "contentFrom"
      from pages p join documents d on d.id = p.document_id where p.seq in (${seqs})`;
  }
  return sql`select c.seq as rowid, ${contentSql('d', 'c')} as content, c.start_index as start, c.end_index as "end", ${contentFromSql('d', 'c')} as "contentFrom"
    from chunks c join documents d on d.seq = c.document_seq where c.seq in (${seqs})`;
}

/**
 * The seqs of the rows of this granularity whose documents pass a filter the metadata index
 * answers (`candidates`), read from the main file. `+`: the documents are found by their seq, not
 * by the collection index (which SQLite otherwise picks, and scans every document of the
 * collection).
 */
export function passingRows(granularity: Granularity, filter: FilterNode, collectionId: string, candidates: FilterCandidates): RawBuilder<unknown> {
  const passing = sql`d.seq in (${candidates.seqs}) and +d.collection_id = ${collectionId} ${candidates.exact ? sql`` : sql`and ${filterSql(filter)}`}`;
  return {
    documents: sql`select d.seq from documents d where ${passing}`,
    pages: sql`select p.seq from documents d join pages p on p.document_id = d.id where ${passing}`,
    coarse: sql`select c.seq from documents d join chunks c on c.document_seq = d.seq where ${passing} and c.granularity = 'coarse'`,
    fine: sql`select c.seq from documents d join chunks c on c.document_seq = d.seq where ${passing} and c.granularity = 'fine'`,
  }[granularity];
}

/** The best rows (rowid, weight) that can be among the k best (rank.ts), joined to their rows, best first. */
function bestJoined(k: number, best: RawBuilder<unknown>, join: (rowid: string) => RawBuilder<unknown>, columns: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${withBestRows(kthOffset(k), best)} select ${columns}, t.weight as weight from t ${join('t.rowid')} where ${canBeAmongK} order by t.weight desc`;
}

/**
 * `limit` as a literal: FTS5 plans `order by rank limit N` knowing N only when N is in the SQL
 * text; bound as a parameter inside the search's materialized CTE, every query pays for a worse
 * plan. The reader threads keep a prepared statement per distinct text, and clients use few
 * values of k.
 */
const rowsLimit = (k: number): RawBuilder<unknown> => sql.lit(k + RANK_SLACK);

/**
 * When a filter's passing documents are weighed here (selectiveTop) rather than every match weighed
 * and joined, in weight order, to its document until k pass. Weighing a passing row analyzes its
 * text again; weighing the matches reads only the query terms' postings, and a match joined and
 * refused costs about as much as analyzing ANALYZED_IN_TERMS terms. So the passing rows are weighed
 * here when they hold fewer terms (estimated from the collection's average row length) than
 * ANALYZED_IN_TERMS times the query terms' matches, and at most SELECTIVE_ROWS of them.
 */
const SELECTIVE_ROWS = 2000;
const ANALYZED_IN_TERMS = 3;

/** The best matches a filtered search first joins to their documents (bestPassing), per row it needs: a filter passing a tenth of them leaves enough. */
const FILTERED_DEPTH = 16;

function sqlitePathOf(database: Database): string {
  if (!database.sqlitePath) throw new Error('The SQLite search index needs the database file path.');
  return database.sqlitePath;
}

/** A pool of reader threads over the database's search files, closed with the handle. */
function openReader(database: Database): ReaderPool {
  const pool = openReaderPool({ databasePath: sqlitePathOf(database), threads: database.searchThreads ?? defaultReaderThreads() });
  beforeDestroy(database, () => pool.close());
  return pool;
}
