import SQLite from 'better-sqlite3';
import { type RawBuilder, sql } from 'kysely';
import { beforeDestroy } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { BM25_B, BM25_K1, BM25_MIN_IDF, bm25Idf, type QueryTerm, queryTermCounts } from './analyzer.ts';
import { type FilterCandidates, filterCandidates, filterSql } from './filter.ts';
import { canBeAmongK, commonBound, kthOffset, rankHits, RANK_SLACK, rankingTerms, withBestRows } from './rank.ts';
import { defaultReaderThreads, openReaderPool, type ReaderPool } from './reader-pool.ts';
import { ftsMatch, ftsTable, type Granularity, openSearchWriter, type SearchWriter, searchFilePath } from './sqlite-file.ts';
import type { FilterNode } from './filter-node.ts';
import type { DocumentHit, PageHit, SearchIndex, SearchRequest, SnippetHit } from './types.ts';

/**
 * SQLite FTS5: each collection's tables in its own search file (see sqlite-file.ts), ranked by
 * bm25() over that collection's rows only. FTS5 ranks the matches and only the best
 * k (and a few more, for ties: rank.ts) are joined to their rows. Searches run on a pool of
 * reader threads (reader-pool.ts): read-only connections (one per recently searched collection,
 * its file attached) with prepared statements kept, so a query costs little more than the FTS5
 * match itself and several run at once, off the HTTP thread. The search files are written by
 * whoever indexes.
 */
export function sqliteSearchIndex(database: Database): SearchIndex {
  // Opened by the first write: ingestion, or the server creating and deleting collections.
  let writer: SearchWriter | null = null;
  const searchWriter = (): SearchWriter => {
    if (writer) return writer;
    const opened = openSearchWriter(sqlitePathOf(database));
    beforeDestroy(database, () => opened.close());
    writer = opened;
    return opened;
  };
  /** `setup` runs once on each reader connection before the query (a temporary table it reads). */
  const run = async <Row>(collectionId: string, query: RawBuilder<unknown>, setup?: string): Promise<Row[]> => {
    const { sql: text, parameters } = query.compile(database.db);
    try {
      // A collection without a search file (nothing indexed yet, or deleted meanwhile) matches nothing.
      return await openReader(database).all<Row>(searchFilePath(sqlitePathOf(database), collectionId), text, parameters, setup);
    } catch (error) {
      // Nor does one whose file is being created this instant (its tables come in one transaction).
      if (error instanceof SQLite.SqliteError && /no such (fts5 )?table/.test(error.message)) return [];
      throw error;
    }
  };

  /**
   * The best rows of one collection's FTS table joined to their rows, best first. Unfiltered,
   * FTS5 ranks on its own and only the top rows are joined, leaving out rows deleted but not yet
   * removed from the search file (they would take places in the k); filtered, matches are joined
   * to their document in rank order until enough pass the filter.
   */
  const top = async <Row extends { weight: number }>(granularity: Granularity, request: SearchRequest, join: (rowid: string) => RawBuilder<unknown>, columns: RawBuilder<unknown>): Promise<Row[]> => {
    if (request.terms) return weightedTop<Row>(granularity, request, join, columns);
    // A term the query repeats is a phrase repeated: bm25() sums over phrases (query term frequency).
    const terms = queryTermCounts(request.query);
    if (terms.length === 0) return [];
    const table = ftsTable(granularity);
    const fts = sql.raw(`search.${table}`);
    const name = sql.raw(table);
    const limit = rowsLimit(request.k);
    if (request.filter) {
      const selective = await selectiveTop<Row>(granularity, request, terms, join, columns);
      if (selective) return selective;
      return run<Row>(
        request.collectionId,
        sql`select ${columns}, -f.rank as weight from ${fts} f ${join('f.rowid')}
            where f.${name} match ${ftsMatch(terms)} and ${filterSql(request.filter)} order by f.rank limit ${limit}`,
      );
    }
    return run<Row>(
      request.collectionId,
      bestJoined(
        request.k,
        sql`select rowid, -rank as weight from ${fts} where ${name} match ${ftsMatch(terms)}
          and rowid not in (select row_id from search_deletions where collection_id = ${request.collectionId} and fts_table = ${granularity})
          order by rank limit ${limit}`,
        join,
        columns,
      ),
    );
  };

  /**
   * A selective filter (issue #11 pt 3): when the documents passing it, found through the metadata
   * index, hold few rows of this granularity (SELECTIVE_ROWS, JOIN_IN_TERMS), only those rows are ranked, by
   * FTS5's own BM25 (bm25(): the same statistics, N, average length and document frequencies of
   * the whole collection, and the same arithmetic) computed here from their stored terms, instead
   * of ranking every match of the query in the collection and dropping those the filter refuses.
   * Null when the filter is not selective (or not one the metadata index can answer): the caller
   * ranks all matches then.
   */
  const selectiveTop = async <Row extends { weight: number }>(
    granularity: Granularity,
    request: SearchRequest,
    terms: QueryTerm[],
    join: (rowid: string) => RawBuilder<unknown>,
    columns: RawBuilder<unknown>,
  ): Promise<Row[] | null> => {
    const candidates = filterCandidates(request.filter!, request.collectionId);
    if (!candidates) return null;
    const table = ftsTable(granularity);
    const rowsOfPassing = passingRows(granularity, request.filter!, request.collectionId, candidates);
    // The collection's statistics as bm25() reads them: rows and tokens (FTS5's averages record),
    // and each query term's document frequency (fts5vocab).
    const vocabulary = `v_${table}`;
    const frequencies = await run<{ term: string; doc: number; block: Uint8Array | null }>(
      request.collectionId,
      sql`select term, doc, (select block from ${sql.raw(`search.${table}_data`)} where id = 1) as block
        from ${sql.raw(`temp.${vocabulary}`)} where term in (${sql.join(terms.map(({ term }) => sql`${term}`))})`,
      `create virtual table if not exists temp.${vocabulary} using fts5vocab(search, '${table}', 'row')`,
    );
    // No query term in the collection: nothing matches.
    const block = frequencies[0]?.block;
    if (!block) return [];
    const [n, tokens] = readVarints(block, 2);
    const averageLength = tokens / n;
    // Weighing the passing rows here must cost less than ranking the matches and joining them,
    // at worst every one, to drop those that fail the filter.
    const matches = frequencies.reduce((total, { doc }) => total + doc, 0);
    const most = Math.min(SELECTIVE_ROWS, Math.floor((JOIN_IN_TERMS * matches) / Math.max(1, averageLength)));
    if (most === 0) return null;
    // The passing documents' rows, counted without reading them, as far as that budget.
    const [counted] = await run<{ rows: number }>(request.collectionId, sql`select count(*) as rows from (${rowsOfPassing} limit ${most + 1})`);
    if (!counted || counted.rows > most) return null;
    // Rows of the passing documents that the index holds (rows just written and not yet indexed are not there).
    const rows = await run<{ rowid: number; content: string }>(
      request.collectionId,
      sql`select rowid, content from ${sql.raw(`search.${table}`)} where rowid in (${rowsOfPassing})`,
    );
    if (rows.length === 0) return [];
    const idf = new Map(frequencies.map(({ term, doc }) => [term, bm25Idf(n, doc)]));
    const scored: { rowid: number; weight: number }[] = [];
    for (const row of rows) {
      const rowTerms = row.content === '' ? [] : row.content.split(' ');
      const counts = new Map<string, number>();
      for (const term of rowTerms) counts.set(term, (counts.get(term) ?? 0) + 1);
      let weight = 0;
      let matched = false;
      // Term by term in query order, each as often as the query says it: bm25() sums over phrases.
      for (const { term, count } of terms) {
        const tf = counts.get(term);
        if (!tf) continue;
        matched = true;
        const part = ((idf.get(term) ?? BM25_MIN_IDF) * (tf * (BM25_K1 + 1))) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * rowTerms.length) / averageLength));
        for (let i = 0; i < count; i++) weight += part;
      }
      if (matched) scored.push({ rowid: row.rowid, weight });
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
  };

  /**
   * A weighted query (relevance feedback): each term's rows ranked by bm25() on their own (the
   * same statistics as any query of the collection), their weights times that BM25 summed per
   * row in SQL, and the best k (plus slack) joined to their rows.
   */
  const weightedTop = <Row extends { weight: number }>(
    granularity: Granularity,
    request: SearchRequest,
    join: (rowid: string) => RawBuilder<unknown>,
    columns: RawBuilder<unknown>,
  ): Promise<Row[]> => {
    const terms = rankingTerms(request);
    if (terms.length === 0) return Promise.resolve([]);
    const table = ftsTable(granularity);
    const fts = sql.raw(`search.${table}`);
    const name = sql.raw(table);
    const limit = rowsLimit(request.k);
    const perTerm = terms.map(({ term, weight }) => sql`select rowid, rank, ${weight} as w from ${fts} where ${name} match ${ftsMatch([term])}`);
    const summed = sql`select rowid, sum(w * -rank) as weight from (${sql.join(perTerm, sql` union all `)}) group by rowid`;
    if (request.filter) {
      return run<Row>(
        request.collectionId,
        sql`select ${columns}, t.weight as weight from (${summed}) t ${join('t.rowid')} where ${filterSql(request.filter)} order by t.weight desc limit ${limit}`,
      );
    }
    return run<Row>(
      request.collectionId,
      bestJoined(
        request.k,
        sql`select rowid, weight from (${summed})
          where rowid not in (select row_id from search_deletions where collection_id = ${request.collectionId} and fts_table = ${granularity})
          order by weight desc limit ${limit}`,
        join,
        columns,
      ),
    );
  };

  /** Rows counted in FTS5's docsize table (one row per indexed row, read without the index). */
  const commonTerms: SearchIndex['commonTerms'] = async (collectionId, granularity, terms, share) => {
    if (terms.length === 0) return new Set();
    const table = ftsTable(granularity);
    const counted = await run<{ n: number }>(collectionId, sql`select count(*) as n from ${sql.raw(`search.${table}_docsize`)}`);
    const bound = commonBound(counted[0]?.n ?? 0, share);
    const fts = sql.raw(`search.${table}`);
    const name = sql.raw(table);
    const counts = terms.map((term) => sql`select ${term} as term, (select count(*) from (select 1 from ${fts} where ${name} match ${ftsMatch([term])} limit ${bound})) as n`);
    const rows = await run<{ term: string; n: number }>(collectionId, sql`${sql.join(counts, sql` union all `)}`);
    return new Set(rows.filter((row) => row.n >= bound).map((row) => row.term));
  };

  return {
    async topDocuments(request) {
      const rows = await top<DocumentHit & { weight: number }>(
        'documents',
        request,
        (rowid) => sql`join documents d on d.seq = ${sql.raw(rowid)}`,
        sql`d.id as documentId, d.path as path, d.metadata as metadata`,
      );
      return rankHits(rows, request.k, (hit) => [hit.path]);
    },
    async topPages(request) {
      const rows = await top<PageHit & { weight: number }>(
        'pages',
        request,
        (rowid) => sql`join pages p on p.seq = ${sql.raw(rowid)} join documents d on d.id = p.document_id`,
        sql`d.id as documentId, d.path as path, d.metadata as metadata, p.page_index as pageIndex, ${sql.raw(request.includeContent ? 'p.content' : 'null')} as content`,
      );
      return rankHits(rows, request.k, (hit) => [hit.path, hit.pageIndex]);
    },
    async topSnippets(request) {
      const rows = await top<SnippetHit & { weight: number }>(
        request.granularity,
        request,
        (rowid) => sql`join chunks c on c.seq = ${sql.raw(rowid)} join documents d on d.id = c.document_id`,
        sql`d.id as documentId, d.path as path, d.metadata as metadata, c.start_index as startIndex, c.end_index as endIndex,
            c.page_start as pageStart, c.page_end as pageEnd, c.content as content`,
      );
      return rankHits(rows, request.k, (hit) => [hit.path, hit.startIndex]);
    },
    commonTerms,
    indexDocuments: (documentIds) => searchWriter().index(documentIds),
    createCollection: (collectionId) => searchWriter().createCollection(collectionId),
    dropCollections: (collectionIds) => searchWriter().dropCollections(collectionIds),
    applyDeletions: () => searchWriter().index([]),
    upkeepStep: async () => (writer ? writer.mergeStep() : false),
  };
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
    coarse: sql`select c.seq from documents d join chunks c on c.document_id = d.id where ${passing} and c.granularity = 'coarse'`,
    fine: sql`select c.seq from documents d join chunks c on c.document_id = d.id where ${passing} and c.granularity = 'fine'`,
  }[granularity];
}

/** The best rows (rowid, weight) that can be among the k best (rank.ts), joined to their rows, best first. */
function bestJoined(k: number, best: RawBuilder<unknown>, join: (rowid: string) => RawBuilder<unknown>, columns: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${withBestRows(kthOffset(k), best)} select ${columns}, t.weight as weight from t ${join('t.rowid')} where ${canBeAmongK} order by t.weight desc`;
}

/**
 * `limit` as a literal: FTS5 plans `order by rank limit N` knowing N only when N is in the SQL
 * text; bound as a parameter inside the search's materialized CTE it cost 30 us a query more
 * (fine snippets at 10 MB: 132 us against 102 in process). The reader threads keep a prepared
 * statement per distinct text, and clients use few values of k.
 */
const rowsLimit = (k: number): RawBuilder<unknown> => sql.lit(k + RANK_SLACK);

/**
 * When a filter's passing documents are weighed here (selectiveTop) rather than every match ranked
 * by FTS5 and joined, in rank order, to its document until k pass. Weighing a row reads every one
 * of its terms; ranking reads only the query terms' postings, and a match joined and refused costs
 * about as much as weighing JOIN_IN_TERMS terms. So the passing rows are weighed when they hold
 * fewer terms (estimated from the collection's average row length) than JOIN_IN_TERMS times the
 * query terms' matches, and at most SELECTIVE_ROWS of them. At 20 MB (4,000 documents of 2-8 KB,
 * mid-frequency query terms), with a fixed cap of 2,000 rows instead: a filter passing 400
 * documents took top-documents 32.7 ms a query here against 1.7 ms ranked by FTS5, and one
 * passing 20 documents took fine snippets 5.1 ms against 1.6.
 */
const SELECTIVE_ROWS = 2000;
const JOIN_IN_TERMS = 10;

/** The first `count` SQLite varints of a record (FTS5's averages record: rows, then tokens per column). */
function readVarints(bytes: Uint8Array, count: number): number[] {
  const values: number[] = [];
  let at = 0;
  while (values.length < count && at < bytes.length) {
    let value = 0;
    for (let i = 0; ; i++) {
      const byte = bytes[at++]!;
      if (i === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) break;
    }
    values.push(value);
  }
  return values;
}

function sqlitePathOf(database: Database): string {
  if (!database.sqlitePath) throw new Error('The SQLite search index needs the database file path.');
  return database.sqlitePath;
}

const readers = new WeakMap<Database, ReaderPool>();

/** One pool of reader threads per database handle, opened by its first search (an ingestion thread never searches), closed with it. */
function openReader(database: Database): ReaderPool {
  const existing = readers.get(database);
  if (existing) return existing;
  const pool = openReaderPool({ databasePath: sqlitePathOf(database), threads: database.searchThreads ?? defaultReaderThreads() });
  beforeDestroy(database, () => pool.close());
  readers.set(database, pool);
  return pool;
}
