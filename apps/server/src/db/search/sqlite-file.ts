import SQLite from 'better-sqlite3';
import { whenUnlocked } from '../sqlite-busy.ts';

/**
 * The SQLite search file: the four contentless FTS5 tables, beside the main database file and
 * derived from it. Ingestion writes it in transactions of its own, so HTTP writes to the main
 * file (uploads, keys, members) never wait for full-text indexing; searches read both files
 * through one connection (`attach ... as search`). Rows deleted from the main file leave
 * `search_deletions` (migration 006) for the next index write to apply. A missing search file
 * is rebuilt from the pages, snippets and text of the indexed documents.
 */
export const FTS_TABLES = ['documents_fts', 'pages_fts', 'coarse_fts', 'fine_fts'] as const;
type FtsTable = (typeof FTS_TABLES)[number];

/** The one token naming a collection in the `collection` column, in JavaScript and in SQL. */
export const collectionToken = (collectionId: string): string => `c${collectionId.replaceAll('-', '')}`;
const collectionTokenSql = (column: string) => `'c' || replace(${column}, '-', '')`;

/** `…/sift.db` -> `…/sift-search.db`. */
export function searchFilePath(sqlitePath: string): string {
  return sqlitePath.endsWith('.db') ? `${sqlitePath.slice(0, -'.db'.length)}-search.db` : `${sqlitePath}-search`;
}

/** Makes the search file's tables readable as `search.<table>` on a connection to the main file. */
export function attachSearchFile(connection: SQLite.Database, sqlitePath: string): void {
  connection.prepare('attach database ? as search').run(searchFilePath(sqlitePath));
}

/**
 * What each FTS table indexes: its rows in the main file (schema `source`), for some documents,
 * by rowid: FTS5 flushes what it holds in memory whenever a rowid is lower than the last one, so
 * rows out of order would make a segment each.
 */
const sources: Record<FtsTable, (documents: string) => string> = {
  documents_fts: (documents) =>
    `select d.seq, ${collectionTokenSql('d.collection_id')}, d.text from source.documents d where d.id in (${documents}) order by d.seq`,
  pages_fts: (documents) =>
    `select p.seq, ${collectionTokenSql('p.collection_id')}, p.content from source.pages p where p.document_id in (${documents}) order by p.seq`,
  coarse_fts: (documents) =>
    `select c.seq, ${collectionTokenSql('c.collection_id')}, c.content from source.chunks c where c.document_id in (${documents}) and c.granularity = 'coarse' order by c.seq`,
  fine_fts: (documents) =>
    `select c.seq, ${collectionTokenSql('c.collection_id')}, c.content from source.chunks c where c.document_id in (${documents}) and c.granularity = 'fine' order by c.seq`,
};

export interface SearchWriter {
  /**
   * One transaction on the search file: pending deletions applied, then the pages, snippets and
   * text of these documents (already written to the main file) indexed in place of any older rows.
   */
  index(documentIds: string[]): Promise<void>;
  close(): void;
}

/** The search file opened for writing; creates (and fills) its tables when they are missing. */
export function openSearchWriter(sqlitePath: string): SearchWriter {
  // No busy timeout: waits for the lock happen in whenUnlocked, between event-loop turns.
  const connection = new SQLite(searchFilePath(sqlitePath), { timeout: 0 });
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('cache_size = -65536');
  connection.prepare('attach database ? as source').run(sqlitePath);
  if (createTables(connection)) rebuild(connection);

  const ids = `select value from json_each(?)`;
  const lastDeletion = connection.prepare<[], { id: number | null }>('select max(id) as id from source.search_deletions');
  const applyDeletions = FTS_TABLES.map((table) =>
    connection.prepare(`delete from ${table} where rowid in (select row_id from source.search_deletions where fts_table = '${table}' and id <= ?)`),
  );
  // A document indexed again keeps its seq: its old document-level row goes first.
  const replaceDocuments = connection.prepare(`delete from documents_fts where rowid in (select seq from source.documents where id in (${ids}))`);
  const inserts = FTS_TABLES.map((table) => connection.prepare(`insert into ${table} (rowid, collection, content) ${sources[table](ids)}`));
  const clearDeletions = connection.prepare('delete from source.search_deletions where id <= ?');
  // The write lock is taken by a plain row update first, so a busy file refuses the transaction
  // before any indexing work. Not `begin immediate`: that would lock the main file too.
  const takeLock = connection.prepare('update index_writes set writes = writes + 1');
  const write = connection.transaction((documents: string, last: number) => {
    takeLock.run();
    for (const statement of applyDeletions) statement.run(last);
    replaceDocuments.run(documents);
    for (const statement of inserts) statement.run(documents);
  });

  return {
    async index(documentIds) {
      const last = lastDeletion.get()?.id ?? 0;
      if (documentIds.length === 0 && last === 0) return;
      const documents = JSON.stringify(documentIds);
      await whenUnlocked(() => write(documents, last));
      // Applied deletions are dropped afterwards; after a crash in between they apply again, harmlessly.
      if (last > 0) await whenUnlocked(() => clearDeletions.run(last));
    },
    close: () => connection.close(),
  };
}

/** Creates the search file, or fills it when it is missing, before anything reads it. */
export function ensureSearchFile(sqlitePath: string): void {
  openSearchWriter(sqlitePath).close();
}

/** Creates the FTS5 tables that do not exist yet; true when the file had none of them. */
function createTables(connection: SQLite.Database): boolean {
  const existing = new Set(
    connection
      .prepare<[], { name: string }>(`select name from main.sqlite_master where type = 'table'`)
      .all()
      .map((row) => row.name),
  );
  if (!existing.has('index_writes')) connection.exec('create table index_writes (writes integer not null); insert into index_writes values (0);');
  for (const table of FTS_TABLES) {
    if (existing.has(table)) continue;
    // Column `collection` holds one token per collection so a search stays inside it; its BM25 weight is 0.
    connection.exec(
      `create virtual table ${table} using fts5(collection, content, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2');` +
        `insert into ${table} (${table}, rank) values ('rank', 'bm25(0.0, 1.0)');`,
    );
  }
  return FTS_TABLES.every((table) => !existing.has(table));
}

/** Fills new tables from every indexed document of the main file (a new or lost search file). */
function rebuild(connection: SQLite.Database): void {
  const hasDocuments = connection.prepare(`select 1 from source.sqlite_master where name = 'documents'`).get();
  if (!hasDocuments) return;
  const indexed = `select id from source.documents where index_status = 'indexed'`;
  connection.transaction(() => {
    for (const table of FTS_TABLES) connection.exec(`insert into ${table} (rowid, collection, content) ${sources[table](indexed)}`);
    connection.exec('delete from source.search_deletions');
  })();
}
