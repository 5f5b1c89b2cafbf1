import SQLite from 'better-sqlite3';
import { whenUnlocked } from '../sqlite-busy.ts';
import { analyze } from './analyzer.ts';

/**
 * The SQLite search file: beside the main database file and derived from it, it holds four
 * FTS5 tables per collection (`c<id>_documents`, `_pages`, `_coarse`, `_fine`), so a
 * collection's BM25 statistics are its own and a query reads only its collection's doclists.
 * The tables hold the analyzer's terms (analyzer.ts) separated by spaces, read back by FTS5's
 * `ascii` tokenizer unchanged, so bm25() counts exactly the analyzer's terms. Ingestion writes
 * the file in transactions of its own, so HTTP writes to the main file never wait for full-text
 * indexing; searches read both files through one connection (`attach ... as search`). Rows
 * deleted from the main file leave `search_deletions` (migrations 006, 007) for the next write
 * to apply. Tables missing for a collection are rebuilt from its stored pages, snippets and text;
 * tables of a collection that no longer exists are dropped.
 */
export const GRANULARITIES = ['documents', 'pages', 'coarse', 'fine'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The FTS5 table of one collection and granularity (a UUID's hex digits make a safe name). */
export const ftsTable = (collectionId: string, granularity: Granularity): string => `c${collectionId.replaceAll('-', '').toLowerCase()}_${granularity}`;
const TABLE_NAME = /^c([0-9a-f]{32})_(documents|pages|coarse|fine)$/;

/** An FTS5 query matching rows holding any of these analyzed terms. */
export const ftsMatch = (terms: string[]): string => terms.map((term) => `"${term}"`).join(' OR ');

/** `…/sift.db` -> `…/sift-search.db`. */
export function searchFilePath(sqlitePath: string): string {
  return sqlitePath.endsWith('.db') ? `${sqlitePath.slice(0, -'.db'.length)}-search.db` : `${sqlitePath}-search`;
}

/** Makes the search file's tables readable as `search.<table>` on a connection to the main file. */
export function attachSearchFile(connection: SQLite.Database, sqlitePath: string): void {
  connection.prepare('attach database ? as search').run(searchFilePath(sqlitePath));
}

/** Rows (rowid, collection, text) of each granularity in the main file, for a set of documents, by rowid. */
const sources: Record<Granularity, (documents: string) => string> = {
  documents: (documents) => `select d.seq as rowid, d.collection_id as collection, coalesce(d.text, '') as text from source.documents d where d.id in (${documents})`,
  pages: (documents) => `select p.seq as rowid, p.collection_id as collection, p.content as text from source.pages p where p.document_id in (${documents})`,
  coarse: (documents) =>
    `select c.seq as rowid, c.collection_id as collection, c.content as text from source.chunks c where c.document_id in (${documents}) and c.granularity = 'coarse'`,
  fine: (documents) =>
    `select c.seq as rowid, c.collection_id as collection, c.content as text from source.chunks c where c.document_id in (${documents}) and c.granularity = 'fine'`,
};
const seqColumn: Record<Granularity, string> = { documents: 'd.seq', pages: 'p.seq', coarse: 'c.seq', fine: 'c.seq' };
interface SourceRow {
  rowid: number;
  collection: string;
  text: string;
}

export interface SearchWriter {
  /**
   * One transaction on the search file: pending deletions applied, then the pages, snippets and
   * text of these documents (already written to the main file) indexed in place of any older rows.
   */
  index(documentIds: string[]): Promise<void>;
  /** Creates a collection's tables (empty) unless they exist. */
  createCollection(collectionId: string): Promise<void>;
  /** Drops these collections' tables. */
  dropCollections(collectionIds: string[]): Promise<void>;
  close(): void;
}

/** Text of a batch analyzed before the write lock is taken; a larger batch is analyzed row by row inside. */
const ANALYZE_AHEAD_BYTES = 16 * 1024 * 1024;

/** The search file opened for writing; brings it in line with the main file first (see below). */
export function openSearchWriter(sqlitePath: string): SearchWriter {
  // No busy timeout: waits for the lock happen in whenUnlocked, between event-loop turns.
  const connection = new SQLite(searchFilePath(sqlitePath), { timeout: 0 });
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('cache_size = -65536');
  connection.prepare('attach database ? as source').run(sqlitePath);

  // Another connection (the server's, deleting a collection) may drop tables: no cache of which exist.
  const tableExists = connection.prepare<[string], { name: string }>(`select name from main.sqlite_master where type = 'table' and name = ?`);
  const hasTable = (table: string) => tableExists.get(table) !== undefined;
  const ensureTables = (collectionId: string) => {
    for (const granularity of GRANULARITIES) createTable(connection, ftsTable(collectionId, granularity));
  };
  const statements = new Map<string, SQLite.Statement>();
  const statement = (text: string) => {
    let prepared = statements.get(text);
    if (!prepared) {
      if (statements.size >= 512) statements.clear();
      prepared = connection.prepare(text);
      statements.set(text, prepared);
    }
    return prepared;
  };
  const dropTables = (collectionId: string) => {
    for (const granularity of GRANULARITIES) connection.exec(`drop table if exists main."${ftsTable(collectionId, granularity)}"`);
  };

  const ids = `select value from json_each(?)`;
  const lastDeletion = connection.prepare<[], { id: number | null }>('select max(id) as id from source.search_deletions');
  const pendingDeletions = connection.prepare<[number], { collection: string; granularity: Granularity }>(
    'select distinct collection_id as collection, fts_table as granularity from source.search_deletions where id <= ?',
  );
  const deleteRows = (table: string) =>
    (`delete from main."${table}" where rowid in (select row_id from source.search_deletions where collection_id = ? and fts_table = ? and id <= ?)`);
  const collectionExists = connection.prepare<[string], { id: string }>('select id from source.collections where id = ?');
  const rowsOf = GRANULARITIES.map((granularity) => [granularity, connection.prepare<[string], SourceRow>(`${sources[granularity](ids)} order by rowid`)] as const);
  const clearDeletions = connection.prepare('delete from source.search_deletions where id <= ?');
  // The write lock is taken by a plain row update first, so a busy file refuses the transaction
  // before any indexing work. Not `begin immediate`: that would lock the main file too.
  const takeLock = connection.prepare('update index_writes set writes = writes + 1');

  const applyDeletions = (last: number) => {
    for (const { collection, granularity } of pendingDeletions.all(last)) {
      const table = ftsTable(collection, granularity);
      if (hasTable(table)) statement(deleteRows(table)).run(collection, granularity, last);
    }
  };
  /** These documents' rows by granularity, with their analyzed terms, ready to insert. */
  type AnalyzedRows = Iterable<readonly [Granularity, Iterable<{ rowid: number; collection: string; terms: string }>]>;
  const analyzeRow = (row: SourceRow) => ({ rowid: row.rowid, collection: row.collection, terms: analyze(row.text).join(' ') });
  const analyzeRows = (documents: string): AnalyzedRows => rowsOf.map(([granularity, rows]) => [granularity, rows.all(documents).map(analyzeRow)] as const);
  /** The same, one granularity's text in memory at a time and each row analyzed as it is inserted. */
  function* analyzeLazily(documents: string): AnalyzedRows {
    for (const [granularity, rows] of rowsOf) {
      const texts = rows.all(documents);
      yield [granularity, (function* () {
        for (const row of texts) yield analyzeRow(row);
      })()] as const;
    }
  }
  const textBytes = connection.prepare<[string], { bytes: number }>(`select coalesce(sum(text_bytes), 0) as bytes from source.documents where id in (${ids})`);

  const write = connection.transaction((documents: string, analyzed: AnalyzedRows | null, last: number) => {
    takeLock.run();
    applyDeletions(last);
    const ready = new Map<string, boolean>();
    for (const [granularity, rows] of analyzed ?? analyzeLazily(documents)) {
      for (const row of rows) {
        let collectionReady = ready.get(row.collection);
        if (collectionReady === undefined) {
          // A collection deleted meanwhile gets no tables back.
          collectionReady = collectionExists.get(row.collection) !== undefined;
          if (collectionReady) ensureTables(row.collection);
          ready.set(row.collection, collectionReady);
        }
        if (!collectionReady) continue;
        const table = ftsTable(row.collection, granularity);
        // A document indexed again keeps its seq: its old document-level row goes first.
        if (granularity === 'documents') statement(`delete from main."${table}" where rowid = ?`).run(row.rowid);
        statement(`insert into main."${table}" (rowid, content) values (?, ?)`).run(row.rowid, row.terms);
      }
    }
  });

  return {
    async index(documentIds) {
      const last = lastDeletion.get()?.id ?? 0;
      if (documentIds.length === 0 && last === 0) return;
      const documents = JSON.stringify(documentIds);
      // The analyzer costs several times what FTS5 does with its terms: run it before taking the
      // file's write lock, so another ingestion thread writes meanwhile and a busy retry does not
      // analyze again. Rows read here that a deletion removes meanwhile leave search_deletions
      // rows newer than `last`: the next write removes them, as when the deletion comes after.
      // Past ANALYZE_AHEAD_BYTES of text the terms are made inside, one row at a time (bounded memory).
      const analyzed = documentIds.length > 0 && (textBytes.get(documents)?.bytes ?? 0) <= ANALYZE_AHEAD_BYTES ? analyzeRows(documents) : null;
      await whenUnlocked(() => write(documents, analyzed, last));
      // Applied deletions are dropped afterwards; after a crash in between they apply again, harmlessly.
      if (last > 0) await whenUnlocked(() => clearDeletions.run(last));
    },
    async createCollection(collectionId) {
      await whenUnlocked(() => connection.transaction(() => ensureTables(collectionId))());
    },
    async dropCollections(collectionIds) {
      if (collectionIds.length === 0) return;
      await whenUnlocked(() => connection.transaction(() => collectionIds.forEach(dropTables))());
    },
    close: () => connection.close(),
  };
}

/** Creates the search file, or brings it in line with the main file (at start), before anything reads it. */
export function ensureSearchFile(sqlitePath: string): void {
  const connection = new SQLite(searchFilePath(sqlitePath));
  try {
    connection.pragma('journal_mode = WAL');
    // Writers open later, with ingestion running: anything they need exists by then.
    connection.exec('create table if not exists index_writes (writes integer not null); insert into index_writes select 0 where not exists (select 1 from index_writes);');
    connection.prepare('attach database ? as source').run(sqlitePath);
    reconcile(connection);
  } finally {
    connection.close();
  }
}

/** Tables of collections in the search file. */
function existingTables(connection: SQLite.Database): string[] {
  return connection
    .prepare<[], { name: string }>(`select name from main.sqlite_master where type = 'table'`)
    .all()
    .map((row) => row.name)
    .filter((name) => TABLE_NAME.test(name));
}

function createTable(connection: SQLite.Database, table: string): void {
  // One column of analyzed terms; FTS5's default rank is bm25() with k1 1.2 and b 0.75. The
  // table keeps its terms (not contentless): FTS5 then removes a deleted row's terms from the
  // statistics exactly, where a contentless table's tombstones leave its document frequencies
  // counted, and rankings would drift from PostgreSQL's and from a rebuilt index.
  connection.exec(`create virtual table if not exists main."${table}" using fts5(content, tokenize='ascii')`);
}

/**
 * The search file in line with the main one: tables of collections that are gone are dropped
 * (a crash after deleting a collection), and a collection whose tables are missing or incomplete
 * (a new or lost search file, the tables of migration 006) gets them back, filled from the pages,
 * snippets and text of its indexed documents.
 */
function reconcile(connection: SQLite.Database): void {
  const hasCollections = connection.prepare(`select 1 from source.sqlite_master where name = 'collections'`).get();
  if (!hasCollections) return;
  // Migration 006's shared tables: their rows now live in each collection's tables.
  for (const table of ['documents_fts', 'pages_fts', 'coarse_fts', 'fine_fts']) connection.exec(`drop table if exists main.${table}`);
  const collections = new Set(connection.prepare<[], { id: string }>('select id from source.collections').all().map((row) => row.id.replaceAll('-', '').toLowerCase()));
  const complete = new Map<string, number>();
  for (const table of existingTables(connection)) {
    const hex = TABLE_NAME.exec(table)![1]!;
    if (!collections.has(hex)) connection.exec(`drop table main."${table}"`);
    else complete.set(hex, (complete.get(hex) ?? 0) + 1);
  }
  const missing = connection
    .prepare<[], { id: string }>('select id from source.collections')
    .all()
    .filter((row) => complete.get(row.id.replaceAll('-', '').toLowerCase()) !== GRANULARITIES.length);
  for (const { id } of missing) rebuildCollection(connection, id);
}

/** A collection's tables made anew from its indexed documents' stored rows, one transaction. */
function rebuildCollection(connection: SQLite.Database, collectionId: string): void {
  const indexed = `select id from source.documents where collection_id = ${quote(collectionId)} and index_status = 'indexed'`;
  connection.transaction(() => {
    for (const granularity of GRANULARITIES) {
      const table = ftsTable(collectionId, granularity);
      connection.exec(`drop table if exists main."${table}"`);
      createTable(connection, table);
      const insert = connection.prepare(`insert into main."${table}" (rowid, content) values (?, ?)`);
      // Pages of rows by rowid: better-sqlite3 runs one statement at a time on a connection.
      const page = connection.prepare<[number], SourceRow>(`${sources[granularity](indexed)} and ${seqColumn[granularity]} > ? order by rowid limit 256`);
      for (let after = 0; ; ) {
        const rows = page.all(after);
        if (rows.length === 0) break;
        for (const row of rows) insert.run(row.rowid, analyze(row.text).join(' '));
        after = rows.at(-1)!.rowid;
      }
    }
    connection.prepare('delete from source.search_deletions where collection_id = ?').run(collectionId);
  })();
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;
