import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { COLLECT_AFTER_CHARS, collectGarbage } from '../../memory.ts';
import { whenUnlocked } from '../../db/sqlite-busy.ts';
import { ANALYZED_ONCE_CHARS, analyze, analyzedText, type QueryTerm, type TextTerms, textTerms } from './analyzer.ts';

/**
 * SQLite search files: one per collection, in a folder beside the main database file and derived
 * from it (`sift.db` -> `sift-search/<collection id>.db`). Each holds four FTS5 tables
 * (`fts_documents`, `fts_pages`, `fts_coarse`, `fts_fine`), so a collection's BM25 statistics are
 * its own and a query reads only its collection's doclists. A file per collection rather than
 * tables per collection in one file: SQLite parses a file's whole schema on every connection and
 * after every schema change, so with a thousand collections (4,000 FTS5 tables, 20,000 schema
 * rows) creating or dropping one took 1.4 s and a new connection's first query 27 s; with a file
 * each, 18 ms, 5 ms (an unlink) and 1 ms, whatever the number of collections. Writes of
 * different collections also take different locks.
 *
 * The tables hold the analyzer's terms (analyzer.ts) separated by spaces, read back by FTS5's
 * `ascii` tokenizer unchanged, so bm25() counts exactly the analyzer's terms. Ingestion writes a
 * collection's file in transactions of its own, so HTTP writes to the main file never wait for
 * full-text indexing; searches read the main file with the collection's file attached
 * (`attach ... as search`). Rows deleted from the main file leave `search_deletions` (migrations
 * 006, 007) for the next write to apply. At start, files of collections that no longer exist go
 * and a collection without its file gets it back, filled from its stored pages, snippets and text.
 */
export const GRANULARITIES = ['documents', 'pages', 'coarse', 'fine'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The FTS5 table of a granularity inside a collection's search file. */
export const ftsTable = (granularity: Granularity): string => `fts_${granularity}`;

/**
 * An FTS5 query matching rows holding any of these analyzed terms. A term is repeated as often as
 * the query says it: bm25() sums over phrases, so that is its query term frequency.
 */
export const ftsMatch = (terms: readonly (string | QueryTerm)[]): string =>
  terms.flatMap((term) => (typeof term === 'string' ? [`"${term}"`] : Array<string>(term.count).fill(`"${term.term}"`))).join(' OR ');

/** `…/sift.db` -> `…/sift-search`: the folder of the collections' search files. */
export function searchDirectory(sqlitePath: string): string {
  return sqlitePath.endsWith('.db') ? `${sqlitePath.slice(0, -'.db'.length)}-search` : `${sqlitePath}-search`;
}

const COLLECTION_FILE = /^([0-9a-f-]{36})\.db$/;

/** The search file of one collection (collection ids are UUIDs: safe file names). */
export function searchFilePath(sqlitePath: string, collectionId: string): string {
  if (!COLLECTION_FILE.test(`${collectionId}.db`)) throw new Error(`Not a collection id: ${collectionId}`);
  return join(searchDirectory(sqlitePath), `${collectionId}.db`);
}

/** Rows (rowid, text) of each granularity in the main file, for a set of documents, by rowid. */
const sources: Record<Granularity, (documents: string) => string> = {
  documents: (documents) => `select d.seq as rowid, coalesce(d.text, '') as text, d.id as document, 0 as start from source.documents d where d.id in (${documents})`,
  pages: (documents) => `select p.seq as rowid, p.content as text, p.document_id as document, p.start_index as start from source.pages p where p.document_id in (${documents})`,
  coarse: (documents) =>
    `select c.seq as rowid, c.content as text, c.document_id as document, c.start_index as start from source.chunks c where c.document_id in (${documents}) and c.granularity = 'coarse'`,
  fine: (documents) =>
    `select c.seq as rowid, c.content as text, c.document_id as document, c.start_index as start from source.chunks c where c.document_id in (${documents}) and c.granularity = 'fine'`,
};
const seqColumn: Record<Granularity, string> = { documents: 'd.seq', pages: 'p.seq', coarse: 'c.seq', fine: 'c.seq' };
interface SourceRow {
  rowid: number;
  text: string;
  /** The row's document, and where its text starts in the document's text. */
  document: string;
  start: number;
}

export interface SearchWriter {
  /**
   * Per collection, one transaction on its search file: its pending deletions applied, then the
   * pages, snippets and text of these documents (already written to the main file) indexed in
   * place of any older rows.
   */
  index(documentIds: string[]): Promise<void>;
  /** Creates a collection's search file (empty) unless it exists. */
  createCollection(collectionId: string): Promise<void>;
  /** Removes these collections' search files. */
  dropCollections(collectionIds: string[]): Promise<void>;
  /**
   * One bounded step merging the FTS5 segments of a collection this writer changed since its
   * last merge; false when none is left to merge.
   */
  mergeStep(): Promise<boolean>;
  close(): void;
}

/** A collection's search file opened for writing, with the main file attached as `source`. */
interface CollectionWriter {
  connection: SQLite.Database;
  /** Merges up to MERGE_PAGES pages of one table's segments in a transaction; false when all are merged. */
  merge(): boolean;
  /** These documents' rows of this collection, analyzed (before any lock is taken). */
  analyze(documents: string): Promise<AnalyzedRows>;
  write(documents: string, analyzed: AnalyzedRows, lastDeletion: number): void;
}
type AnalyzedRows = [number, string][][];

/** Files a writer keeps open: ingestion goes collection by collection, rarely through many at once. */
const OPEN_WRITERS = 16;

/**
 * Pages of segment merging one step writes (FTS5's 'merge' command): a step holds the
 * collection's write lock for tens of milliseconds, then work waiting in the queue comes first.
 */
const MERGE_PAGES = 1000;

/** The search files opened for writing, as collections need them. */
export function openSearchWriter(sqlitePath: string): SearchWriter {
  // The main file: which collections documents and deletions belong to; deletions applied.
  const main = new SQLite(sqlitePath, { fileMustExist: true, timeout: 0 });
  const clearDeletions = main.prepare('delete from search_deletions where id <= ?');
  const collectionsOf = main.prepare<[string], { collection: string }>(`select distinct collection_id as collection from documents where id in (select value from json_each(?))`);
  const deletionsOf = main.prepare<[number], { collection: string }>('select distinct collection_id as collection from search_deletions where id <= ?');
  const lastDeletion = main.prepare<[], { id: number | null }>('select max(id) as id from search_deletions');
  const collectionExists = main.prepare<[string], { id: string }>('select id from collections where id = ?');
  const writers = new Map<string, CollectionWriter>();
  // Collections written since their segments were last merged into one.
  const unmerged = new Set<string>();

  const writerOf = async (collectionId: string): Promise<CollectionWriter> => {
    const open = writers.get(collectionId);
    if (open) {
      // Most recently used last: the first is the one to close when too many are open.
      writers.delete(collectionId);
      writers.set(collectionId, open);
      return open;
    }
    const writer = await openCollectionWriter(sqlitePath, collectionId);
    writers.set(collectionId, writer);
    if (writers.size > OPEN_WRITERS) {
      const [oldest, closing] = writers.entries().next().value!;
      writers.delete(oldest);
      closing.connection.close();
    }
    return writer;
  };
  const forget = (collectionId: string) => {
    writers.get(collectionId)?.connection.close();
    writers.delete(collectionId);
  };

  return {
    async index(documentIds) {
      const last = lastDeletion.get()?.id ?? 0;
      if (documentIds.length === 0 && last === 0) return;
      const documents = JSON.stringify(documentIds);
      const collections = new Set([...collectionsOf.all(documents), ...(last > 0 ? deletionsOf.all(last) : [])].map((row) => row.collection));
      for (const collection of collections) {
        // A collection deleted meanwhile gets no file back (its documents went with it).
        if (!collectionExists.get(collection)) continue;
        const writer = await writerOf(collection);
        // Analyzed before the write lock is taken: the other ingestion thread writes meanwhile,
        // and a busy retry does not analyze again.
        const analyzed = await writer.analyze(documents);
        await whenUnlocked(() => writer.write(documents, analyzed, last));
        unmerged.add(collection);
      }
      // Applied deletions are dropped afterwards; after a crash in between they apply again, harmlessly.
      if (last > 0) await whenUnlocked(() => clearDeletions.run(last));
    },
    async createCollection(collectionId) {
      await writerOf(collectionId);
    },
    async dropCollections(collectionIds) {
      for (const collectionId of collectionIds) {
        forget(collectionId);
        unmerged.delete(collectionId);
        removeSearchFile(searchFilePath(sqlitePath, collectionId));
      }
    },
    async mergeStep() {
      for (const collection of unmerged) {
        if (!collectionExists.get(collection)) {
          unmerged.delete(collection);
          continue;
        }
        const writer = await writerOf(collection);
        if (await whenUnlocked(() => writer.merge())) return true;
        unmerged.delete(collection);
      }
      return false;
    },
    close() {
      for (const writer of writers.values()) writer.connection.close();
      writers.clear();
      main.close();
    },
  };
}

/** Opens (creating when missing) a collection's search file and prepares its write. */
async function openCollectionWriter(sqlitePath: string, collectionId: string): Promise<CollectionWriter> {
  mkdirSync(searchDirectory(sqlitePath), { recursive: true });
  // No busy timeout: waits for the lock happen in whenUnlocked, between event-loop turns.
  const connection = new SQLite(searchFilePath(sqlitePath, collectionId), { timeout: 0 });
  try {
    await whenUnlocked(() => {
      connection.pragma('journal_mode = WAL');
      connection.pragma('synchronous = NORMAL');
      connection.transaction(() => createTables(connection))();
    });
  } catch (error) {
    connection.close();
    throw error;
  }
  connection.pragma('cache_size = -16384');
  connection.prepare('attach database ? as source').run(sqlitePath);

  const ids = `select value from json_each(?)`;
  const applyDeletions = GRANULARITIES.map((granularity) =>
    connection.prepare(
      `delete from main.${ftsTable(granularity)} where rowid in (select row_id from source.search_deletions where collection_id = '${collectionId}' and fts_table = '${granularity}' and id <= ?)`,
    ),
  );
  // A document indexed again keeps its seq: its old document-level row goes first. The `+` keeps
  // SQLite on the documents' ids: by the collection index it scanned every document of the
  // collection for each batch (350 ms of 1.35 s of writing 20 MB of small documents, growing).
  const replaceDocuments = connection.prepare(`delete from main.fts_documents where rowid in (select seq from source.documents where id in (${ids}) and +collection_id = '${collectionId}')`);
  const rowsOf = GRANULARITIES.map(
    (granularity) =>
      [
        // Documents of the batch in other collections are theirs to index.
        connection.prepare<[string, number], SourceRow>(
          `${sources[granularity](ids)} and +${seqColumn[granularity].split('.')[0]}.collection_id = '${collectionId}' and ${seqColumn[granularity]} > ? order by rowid limit 256`,
        ),
        connection.prepare(`insert into main.${ftsTable(granularity)} (rowid, content) values (?, ?)`),
      ] as const,
  );
  // The write lock is taken by a plain row update first, so a busy file refuses the transaction
  // before any indexing work. Not `begin immediate`: that would lock the main file too.
  const takeLock = connection.prepare('update index_writes set writes = writes + 1');
  // Rows a page at a time. A document's text is analyzed once and its pages and snippets are
  // slices of it (analyzer.ts); a text past ANALYZED_ONCE_CHARS is analyzed alone, in slices
  // (analyzedText): a 60 MB document's rows read and analyzed at once took the thread past 3 GB.
  const analyzeRows = async (documents: string): Promise<AnalyzedRows> => {
    const texts = new Map<string, TextTerms>();
    const termsOf = async (granularity: Granularity, row: SourceRow): Promise<string> => {
      if (row.text.length > ANALYZED_ONCE_CHARS) return analyzedText(row.text);
      if (granularity === 'documents') {
        const terms = textTerms(row.text);
        texts.set(row.document, terms);
        return terms.all().join(' ');
      }
      const text = texts.get(row.document);
      return (text ? text.slice(row.start, row.text) : analyze(row.text)).join(' ');
    };
    const analyzed: AnalyzedRows = [];
    let large = false;
    for (const [i, [rows]] of rowsOf.entries()) {
      const granularity: [number, string][] = [];
      for (let after = 0; ; ) {
        const page = rows.all(documents, after);
        if (page.length === 0) break;
        for (const row of page) {
          large ||= row.text.length >= COLLECT_AFTER_CHARS;
          granularity.push([row.rowid, await termsOf(GRANULARITIES[i]!, row)]);
        }
        after = page.at(-1)!.rowid;
      }
      analyzed.push(granularity);
      // The rows of a large document read for this granularity are garbage now, a hundred MB
      // and more that V8 would keep beside the next granularity's until its heap filled.
      if (large) collectGarbage();
    }
    return analyzed;
  };
  const write = connection.transaction((documents: string, analyzed: AnalyzedRows, last: number) => {
    takeLock.run();
    for (const statement of applyDeletions) statement.run(last);
    replaceDocuments.run(documents);
    rowsOf.forEach(([, insert], i) => {
      for (const [rowid, terms] of analyzed[i]!) insert.run(rowid, terms);
    });
  });
  // Each write adds segments to the tables that FTS5 merges only in part; a query looks a term
  // up in every segment, so after a burst of writes it pays for each (fine snippets at 10 MB:
  // 158 us a query before the merge, 105 after). Merged to one segment per table, a step at a time.
  const merges = GRANULARITIES.map((granularity) => connection.prepare(`insert into main.${ftsTable(granularity)} (${ftsTable(granularity)}, rank) values ('merge', ?)`));
  const totalChanges = connection.prepare<[], number>('select total_changes()').pluck();
  const changes = () => totalChanges.get() ?? 0;
  const merge = connection.transaction((): boolean => {
    for (const statement of merges) {
      const before = changes();
      // Negative: any two segments are merged, whatever their levels (positive waits for FTS5's usermerge of one level).
      statement.run(-MERGE_PAGES);
      // The command itself counts one change; a merge writes pages besides.
      if (changes() - before > 1) return true;
    }
    return false;
  });
  return { connection, merge, analyze: analyzeRows, write };
}

function createTables(connection: SQLite.Database): void {
  connection.exec('create table if not exists index_writes (writes integer not null); insert into index_writes select 0 where not exists (select 1 from index_writes);');
  for (const granularity of GRANULARITIES) {
    // One column of analyzed terms; FTS5's default rank is bm25() with k1 1.2 and b 0.75. The
    // table keeps its terms (not contentless): FTS5 then removes a deleted row's terms from the
    // statistics exactly, where a contentless table's tombstones leave its document frequencies
    // counted, and rankings would drift from PostgreSQL's and from a rebuilt index.
    connection.exec(`create virtual table if not exists ${ftsTable(granularity)} using fts5(content, tokenize='ascii')`);
  }
}

function removeSearchFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}

/**
 * Brings the search files in line with the main file, at start, before anything reads them:
 * files of collections that are gone are removed (a crash after deleting a collection), and a
 * collection without a complete file (a new or lost folder, the shared file of migration 006)
 * gets one, filled from the pages, snippets and text of its indexed documents.
 */
export function ensureSearchFiles(sqlitePath: string): void {
  // Migration 006's shared search file: its rows now live in each collection's file.
  removeSearchFile(sqlitePath.endsWith('.db') ? `${sqlitePath.slice(0, -'.db'.length)}-search.db` : `${sqlitePath}-search`);
  const directory = searchDirectory(sqlitePath);
  mkdirSync(directory, { recursive: true });
  const main = new SQLite(sqlitePath, { readonly: true, fileMustExist: true });
  let collections: string[];
  try {
    const hasCollections = main.prepare(`select 1 from sqlite_master where name = 'collections'`).get();
    collections = hasCollections ? main.prepare<[], { id: string }>('select id from collections').all().map((row) => row.id) : [];
  } finally {
    main.close();
  }
  const live = new Set(collections);
  for (const name of readdirSync(directory)) {
    const id = COLLECTION_FILE.exec(name.replace(/-(wal|shm|journal)$/, ''))?.[1];
    if (id && !live.has(id)) rmSync(join(directory, name), { force: true });
  }
  for (const collectionId of collections) {
    const file = searchFilePath(sqlitePath, collectionId);
    if (existsSync(file) && isComplete(file)) continue;
    rebuildCollection(sqlitePath, collectionId);
  }
}

function isComplete(file: string): boolean {
  const connection = new SQLite(file, { readonly: true });
  try {
    const names = new Set(connection.prepare<[], { name: string }>(`select name from sqlite_master where type = 'table'`).all().map((row) => row.name));
    return names.has('index_writes') && GRANULARITIES.every((granularity) => names.has(ftsTable(granularity)));
  } finally {
    connection.close();
  }
}

/** A collection's search file made anew from its indexed documents' stored rows. */
export function rebuildCollection(sqlitePath: string, collectionId: string): void {
  const file = searchFilePath(sqlitePath, collectionId);
  removeSearchFile(file);
  const connection = new SQLite(file);
  try {
    connection.pragma('journal_mode = WAL');
    connection.prepare('attach database ? as source').run(sqlitePath);
    // The collection's indexed documents 64 at a time, and their rows a page at a time (better-sqlite3
    // runs one statement at a time on a connection). Paging the rows of the whole collection at
    // once re-read every remaining row for each page of 256 (10 MB: 3.9 s, growing with the square).
    const documentsAfter = connection.prepare<[string], string>(
      `select id from source.documents where collection_id = '${collectionId}' and index_status = 'indexed' and id > ? order by id limit 64`,
    );
    documentsAfter.pluck();
    // Tables and rows in one transaction: a file with its tables is a complete one (isComplete).
    connection.transaction(() => {
      createTables(connection);
      const pages = GRANULARITIES.map((granularity) => ({
        insert: connection.prepare(`insert into main.${ftsTable(granularity)} (rowid, content) values (?, ?)`),
        rows: connection.prepare<[string, number], SourceRow>(`${sources[granularity]('select value from json_each(?)')} and ${seqColumn[granularity]} > ? order by rowid limit 256`),
      }));
      for (let last = ''; ; ) {
        const ids = documentsAfter.all(last);
        if (ids.length === 0) break;
        last = ids.at(-1)!;
        const documents = JSON.stringify(ids);
        for (const { insert, rows } of pages) {
          for (let after = 0; ; ) {
            const page = rows.all(documents, after);
            if (page.length === 0) break;
            for (const row of page) insert.run(row.rowid, analyze(row.text).join(' '));
            after = page.at(-1)!.rowid;
          }
        }
      }
    })();
    connection.prepare('delete from source.search_deletions where collection_id = ?').run(collectionId);
  } finally {
    connection.close();
  }
}
