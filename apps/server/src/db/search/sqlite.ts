import { type RawBuilder, sql } from 'kysely';
import { beforeDestroy } from '../database.ts';
import type { Database } from '../schema.ts';
import { filterSql } from './filter.ts';
import { bm25Score, queryTerms } from './query-terms.ts';
import { defaultReaderThreads, openReaderPool, type ReaderPool } from './reader-pool.ts';
import { collectionToken, openSearchWriter, searchFilePath, type SearchWriter } from './sqlite-file.ts';
import type { DocumentHit, PageHit, SearchIndex, SearchRequest, SnippetHit } from './types.ts';

/**
 * SQLite FTS5: contentless tables `documents_fts`, `pages_fts`, `coarse_fts`, `fine_fts` in the
 * search file (see sqlite-file.ts), ranked by bm25() with the collection column weighted 0.
 * Searches run on a pool of reader threads (reader-pool.ts), read-only connections with their
 * prepared statements kept, so a query costs little more than the FTS5 match itself and several
 * run at once, off the HTTP thread. The search file is written by whoever indexes.
 */
export function sqliteSearchIndex(database: Database): SearchIndex {
  const reader = openReader(database);
  // Opened by the first index write: only ingestion writes the search file.
  let writer: SearchWriter | null = null;
  const searchWriter = (): SearchWriter => {
    if (writer) return writer;
    const opened = openSearchWriter(sqlitePathOf(database));
    beforeDestroy(database, () => opened.close());
    writer = opened;
    return opened;
  };
  const run = <Row>(query: RawBuilder<unknown>): Promise<Row[]> => {
    const { sql: text, parameters } = query.compile(database.db);
    return reader.all<Row>(text, parameters);
  };

  /** `collection : "c<id>" AND content : ("t1" OR "t2")`; terms are letters and digits only. */
  const matchExpression = (request: SearchRequest): string | null => {
    const terms = queryTerms(request.query);
    if (terms.length === 0) return null;
    return `collection : "${collectionToken(request.collectionId)}" AND content : (${terms.map((term) => `"${term}"`).join(' OR ')})`;
  };

  /**
   * The k best rows of one FTS table joined to their rows. Unfiltered, the FTS5 table ranks on
   * its own and only the top k are joined, leaving out rows deleted but not yet removed from the
   * search file (they would take places in the k); filtered, every match is joined to its document.
   */
  const top = async <Row extends { rank: number }>(table: string, join: RawBuilder<unknown>, columns: RawBuilder<unknown>, request: SearchRequest) => {
    const match = matchExpression(request);
    if (match === null) return [];
    const fts = sql.raw(table);
    const rows = request.filter
      ? await run<Row>(sql`select ${columns}, ${fts}.rank as rank from ${fts} ${join} where ${fts} match ${match} and ${filterSql(request.filter)} order by ${fts}.rank limit ${request.k}`)
      : await run<Row>(
          sql`select ${columns}, t.rank as rank from (select rowid, rank from ${fts} where ${fts} match ${match}
              and rowid not in (select row_id from search_deletions where fts_table = ${table}) order by rank limit ${request.k}) t ${join} order by t.rank`,
        );
    return rows.map((row) => ({ ...row, score: bm25Score(-row.rank) }));
  };

  return {
    async topDocuments(request) {
      const rowid = sql.raw(request.filter ? 'documents_fts.rowid' : 't.rowid');
      return (await top<DocumentHit & { rank: number }>(
        'documents_fts',
        sql`join documents d on d.seq = ${rowid}`,
        sql`d.id as documentId, d.path as path, d.metadata as metadata`,
        request,
      )).map(({ rank: _rank, ...hit }) => hit);
    },
    async topPages(request) {
      const rowid = sql.raw(request.filter ? 'pages_fts.rowid' : 't.rowid');
      return (await top<PageHit & { rank: number }>(
        'pages_fts',
        sql`join pages p on p.seq = ${rowid} join documents d on d.id = p.document_id`,
        sql`d.id as documentId, d.path as path, d.metadata as metadata, p.page_index as pageIndex, ${sql.raw(request.includeContent ? 'p.content' : 'null')} as content`,
        request,
      )).map(({ rank: _rank, ...hit }) => hit);
    },
    async topSnippets(request) {
      const table = request.granularity === 'fine' ? 'fine_fts' : 'coarse_fts';
      const rowid = sql.raw(request.filter ? `${table}.rowid` : 't.rowid');
      return (await top<SnippetHit & { rank: number }>(
        table,
        sql`join chunks c on c.seq = ${rowid} join documents d on d.id = c.document_id`,
        sql`d.id as documentId, d.path as path, d.metadata as metadata, c.start_index as startIndex, c.end_index as endIndex,
            c.page_start as pageStart, c.page_end as pageEnd, c.content as content`,
        request,
      )).map(({ rank: _rank, ...hit }) => hit);
    },
    indexDocuments: (documentIds) => searchWriter().index(documentIds),
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
  const databasePath = sqlitePathOf(database);
  const pool = openReaderPool({ databasePath, searchPath: searchFilePath(databasePath), threads: database.searchThreads ?? defaultReaderThreads() });
  beforeDestroy(database, () => pool.close());
  readers.set(database, pool);
  return pool;
}
