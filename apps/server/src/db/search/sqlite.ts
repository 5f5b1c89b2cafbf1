import SQLite from 'better-sqlite3';
import { type RawBuilder, sql } from 'kysely';
import { beforeDestroy } from '../database.ts';
import type { Database } from '../schema.ts';
import { queryTermCounts } from './analyzer.ts';
import { filterSql } from './filter.ts';
import { commonBound, rankHits, RANK_SLACK, rankingTerms } from './rank.ts';
import { defaultReaderThreads, openReaderPool, type ReaderPool } from './reader-pool.ts';
import { ftsMatch, ftsTable, type Granularity, openSearchWriter, type SearchWriter, searchFilePath } from './sqlite-file.ts';
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
  const reader = openReader(database);
  // Opened by the first write: ingestion, or the server creating and deleting collections.
  let writer: SearchWriter | null = null;
  const searchWriter = (): SearchWriter => {
    if (writer) return writer;
    const opened = openSearchWriter(sqlitePathOf(database));
    beforeDestroy(database, () => opened.close());
    writer = opened;
    return opened;
  };
  const run = async <Row>(collectionId: string, query: RawBuilder<unknown>): Promise<Row[]> => {
    const { sql: text, parameters } = query.compile(database.db);
    try {
      // A collection without a search file (nothing indexed yet, or deleted meanwhile) matches nothing.
      return await reader.all<Row>(searchFilePath(sqlitePathOf(database), collectionId), text, parameters);
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
    const limit = request.k + RANK_SLACK;
    if (request.filter) {
      return run<Row>(
        request.collectionId,
        sql`select ${columns}, -f.rank as weight from ${fts} f ${join('f.rowid')}
            where f.${name} match ${ftsMatch(terms)} and ${filterSql(request.filter)} order by f.rank limit ${limit}`,
      );
    }
    return run<Row>(
      request.collectionId,
      sql`select ${columns}, -t.rank as weight from (select rowid, rank from ${fts} where ${name} match ${ftsMatch(terms)}
          and rowid not in (select row_id from search_deletions where collection_id = ${request.collectionId} and fts_table = ${granularity})
          order by rank limit ${limit}) t ${join('t.rowid')} order by t.rank`,
    );
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
    const limit = request.k + RANK_SLACK;
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
      sql`select ${columns}, t.weight as weight from (select rowid, weight from (${summed})
          where rowid not in (select row_id from search_deletions where collection_id = ${request.collectionId} and fts_table = ${granularity})
          order by weight desc limit ${limit}) t ${join('t.rowid')} order by t.weight desc`,
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
  };
}

function sqlitePathOf(database: Database): string {
  if (!database.sqlitePath) throw new Error('The SQLite search index needs the database file path.');
  return database.sqlitePath;
}

const readers = new WeakMap<Database, ReaderPool>();

/** One pool of reader threads per database handle, closed with it. */
function openReader(database: Database): ReaderPool {
  const existing = readers.get(database);
  if (existing) return existing;
  const pool = openReaderPool({ databasePath: sqlitePathOf(database), threads: database.searchThreads ?? defaultReaderThreads() });
  beforeDestroy(database, () => pool.close());
  readers.set(database, pool);
  return pool;
}
