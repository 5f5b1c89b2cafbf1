import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { COLLECT_AFTER_CHARS, collectGarbage } from '../../memory.ts';
import { whenUnlocked } from '../../db/sqlite-busy.ts';
import { ANALYZED_ONCE_CHARS, analyze, type TermCounts, termCounts, termCountsInSlices, type TextTerms, textTerms } from './analyzer.ts';
import { ANN_FILE, annUpkeep, removeCollectionAnns } from './sqlite-ann.ts';
import { contentFromExpression, openingExpression, rowOpeningExpression, slicedContent, wholeTextExpression } from './slices.ts';
import { EMBED_BATCH, EMBED_CHARS, embedderKey, embedDocuments, type VectorEmbedder, vectorBytes } from './vectors.ts';

/**
 * SQLite search files: one per collection, in a folder beside the main database file and derived
 * from it (`sift.db` -> `sift-search/<collection id>.db`). Each holds four FTS5 tables
 * (`fts_documents`, `fts_pages`, `fts_coarse`, `fts_fine`), so a collection's BM25 statistics are
 * its own and a query reads only its collection's doclists. A file per collection rather than
 * tables per collection in one file: SQLite parses a file's whole schema on every connection and
 * after every schema change, so with many collections in one file, creating or dropping one and
 * a new connection's first query grew slow with their number; with a file each (dropping one is
 * an unlink) they cost the same whatever the number of collections. Writes of different
 * collections also take different locks.
 *
 * FTS5 is the postings store: its tables are contentless (`content=''`, `contentless_delete=1`)
 * and keep no positions (`detail=none`: nothing searches phrases). A row is given each of its
 * analyzed terms (analyzer.ts) once, with its frequency in the row (postingsText), so a term's rows
 * and frequencies are the tokens of one range of FTS5's vocabulary (tokenRange), read without
 * counting occurrences. The text itself is stored once, in the main file. The file also holds the
 * statistics BM25 needs (rank.ts), kept in the indexing transaction: each granularity's row
 * lengths (`rows_<granularity>`) and its rows and tokens (`stats`); document frequencies are summed
 * from the vocabulary, which a delete updates at once. FTS5's own bm25() is not used: after
 * contentless deletes its averages drift from the rows left.
 * Ingestion writes a collection's file in transactions of its own, so HTTP writes to the main
 * file never wait for full-text indexing; searches read the main file with the collection's file
 * attached (`attach ... as search`). Rows deleted from the main file leave `search_deletions`
 * (migrations 006, 007) for the next write to apply. A collection's file is made by its first
 * indexing (an empty collection has none); at start, files of collections that no longer exist
 * go, and a collection with indexed documents whose file is missing or of an earlier format
 * (SEARCH_FORMAT) gets it anew, filled from its documents' text.
 */
export const GRANULARITIES = ['documents', 'pages', 'coarse', 'fine'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** The FTS5 table of a granularity inside a collection's search file. */
export const ftsTable = (granularity: Granularity): string => `fts_${granularity}`;
/** The row lengths (in terms) of a granularity, rowid -> length. */
export const lengthsTable = (granularity: Granularity): string => `rows_${granularity}`;
/** The vectors of a granularity's rows (vectors.ts): rowid -> the embedder's key and its float32s. */
export const vectorsTable = (granularity: Granularity): string => `vectors_${granularity}`;

/**
 * The search file's format, its user_version: 4 since postings hold each term once with its
 * frequency (2 and 3 held every occurrence); a file of another format is rebuilt at start.
 */
const SEARCH_FORMAT = 4;

/**
 * A row's postings as FTS5 is given them: each distinct term once, followed by its frequency in
 * the row (`heron_3`). `_` is a token character of the tables' tokenizer and never part of a term
 * (analyzer.ts: letters and digits).
 */
export const postingsText = ({ frequencies }: TermCounts): string => {
  const tokens: string[] = [];
  for (const [term, frequency] of frequencies) tokens.push(`${term}_${frequency}`);
  return tokens.join(' ');
};

/**
 * The vocabulary range holding a term's tokens (postingsText), [low, high): '`' follows '_', and a
 * longer term's next character is a digit (below '_') or a lower-case letter (above '`'), so no
 * other term's tokens fall in it. A token's frequency is what follows `low`.
 */
export const tokenRange = (term: string): [low: string, high: string] => [`${term}_`, `${term}\``];

/** `…/sift.db` -> `…/sift-search`: the folder of the collections' search files. */
export function searchDirectory(sqlitePath: string): string {
  return sqlitePath.endsWith('.db') ? `${sqlitePath.slice(0, -'.db'.length)}-search` : `${sqlitePath}-search`;
}

const COLLECTION_FILE = /^([0-9a-f-]{36})\.db$/;
/** A new search file while its tables are made, before it is linked into place (createSearchFile). */
const DRAFT_FILE = /^[0-9a-f-]{36}\.db\.draft-\d+-\d+$/;

/** The search file of one collection (collection ids are UUIDs: safe file names). */
export function searchFilePath(sqlitePath: string, collectionId: string): string {
  if (!COLLECTION_FILE.test(`${collectionId}.db`)) throw new Error(`Not a collection id: ${collectionId}`);
  return join(searchDirectory(sqlitePath), `${collectionId}.db`);
}

/** A granularity of snippets' source rows: their text is a slice of their document's. */
const snippetSource = (granularity: 'coarse' | 'fine', documents: string) =>
  `select c.seq as rowid, '' as text, d.id as document, c.start_index as start, c.end_index as end from source.documents d join source.chunks c on c.document_seq = d.seq where d.id in (${documents}) and c.granularity = '${granularity}'`;

/**
 * Rows of each granularity in the main file, for a set of documents, by rowid: a document's text,
 * and its pages' and snippets' offsets into it (their text is that slice, slices.ts).
 */
const sources: Record<Granularity, (documents: string) => string> = {
  documents: (documents) => `select d.seq as rowid, coalesce(${wholeTextExpression('d', 'source.')}, '') as text, d.id as document, 0 as start, 0 as end from source.documents d where d.id in (${documents})`,
  pages: (documents) => `select p.seq as rowid, '' as text, p.document_id as document, p.start_index as start, p.end_index as end from source.pages p where p.document_id in (${documents})`,
  coarse: (documents) => snippetSource('coarse', documents),
  fine: (documents) => snippetSource('fine', documents),
};
const seqColumn: Record<Granularity, string> = { documents: 'd.seq', pages: 'p.seq', coarse: 'c.seq', fine: 'c.seq' };
/** The column naming a source row's collection (a snippet's is its document's). */
const collectionColumn: Record<Granularity, string> = { documents: 'd.collection_id', pages: 'p.collection_id', coarse: 'd.collection_id', fine: 'd.collection_id' };
interface SourceRow {
  rowid: number;
  /** A document's text; empty for a page or snippet, whose text is the slice [start, end) of it. */
  text: string;
  document: string;
  start: number;
  end: number;
}

/** A row as its FTS5 row is written: rowid, postings (postingsText), and how many terms. */
type IndexedRow = [rowid: number, postings: string, count: number];
const indexedRow = (row: SourceRow, counts: TermCounts): IndexedRow => [row.rowid, postingsText(counts), counts.count];

/**
 * The analyzed terms of a collection's rows, documents first: a document's text is analyzed once
 * and its pages and snippets are slices of it (analyzer.ts); a text past ANALYZED_ONCE_CHARS is
 * analyzed alone, in slices (termCountsInSlices): a large document's rows analyzed at once would
 * take the thread's memory to many times the document's size.
 */
class RowTerms {
  private readonly texts = new Map<string, string>();
  private readonly terms = new Map<string, TextTerms>();

  /** The row as its FTS5 row is written: rowid, postings (postingsText), and how many terms. */
  async of(granularity: Granularity, row: SourceRow): Promise<IndexedRow> {
    const content = this.contentOf(granularity, row);
    return indexedRow(row, content.length > ANALYZED_ONCE_CHARS ? await termCountsInSlices(content) : termCounts(this.small(granularity, row, content)));
  }

  /** The same without yielding, for a rebuild inside one transaction. */
  ofNow(granularity: Granularity, row: SourceRow): IndexedRow {
    const content = this.contentOf(granularity, row);
    return indexedRow(row, termCounts(content.length > ANALYZED_ONCE_CHARS ? analyze(content) : this.small(granularity, row, content)));
  }

  /** The row's text (a document's is kept for its pages and snippets, which follow it). */
  contentOf(granularity: Granularity, row: SourceRow): string {
    if (granularity !== 'documents') return (this.texts.get(row.document) ?? '').slice(row.start, row.end);
    this.texts.set(row.document, row.text);
    return row.text;
  }

  private small(granularity: Granularity, row: SourceRow, content: string): string[] {
    if (granularity === 'documents') {
      const terms = textTerms(content);
      this.terms.set(row.document, terms);
      return terms.all();
    }
    const text = this.terms.get(row.document);
    return text ? text.slice(row.start, content) : analyze(content);
  }
}

export interface SearchWriter {
  /**
   * Per collection, one transaction on its search file: its pending deletions applied, then the
   * pages, snippets and text of these documents (already written to the main file) indexed in
   * place of any older rows.
   */
  index(documentIds: string[]): Promise<void>;
  /** Removes these collections' search files. */
  dropCollections(collectionIds: string[]): Promise<void>;
  /**
   * One bounded step merging the FTS5 segments of a collection this writer changed since its
   * last merge; false when none is left to merge.
   */
  mergeStep(): Promise<boolean>;
  /**
   * With an embedder: one bounded batch of rows, of a collection whose vectors are missing or
   * came from another embedder, embedded again; false when none is left.
   */
  vectorStep(): Promise<boolean>;
  /**
   * With an embedder: one bounded step building or extending the approximate nearest-rows index
   * of a collection written since (sqlite-ann.ts); false when every one is in line.
   */
  annStep(): Promise<boolean>;
  close(): void;
}

/** A collection's search file opened for writing, with the main file attached as `source`. */
interface CollectionWriter {
  connection: SQLite.Database;
  /**
   * Merges up to MERGE_PAGES pages of one table's segments in a transaction, or once all are
   * merged gives back up to MERGE_PAGES free pages to the disk; false when none is left of either.
   */
  merge(): boolean;
  /** These documents' rows of this collection, analyzed (before any lock is taken). */
  analyze(documents: string): Promise<AnalyzedRows>;
  write(documents: string, analyzed: AnalyzedRows, lastDeletion: number): void;
  /** One batch of this collection's rows without a vector of `key` embedded; false when there was none. */
  reembed(key: string): Promise<boolean>;
  /** Its nearest-rows indexes' upkeep (sqlite-ann.ts). */
  ann: ReturnType<typeof annUpkeep>;
}
/**
 * Per granularity, its rows: rowid, postings (postingsText), and how many terms; with an embedder,
 * their vectors (rowid, embedder key, float32 bytes).
 */
interface AnalyzedRows {
  terms: IndexedRow[][];
  vectors: VectorRow[][];
}
type VectorRow = [number, string, Buffer];

/** Files a writer keeps open: ingestion goes collection by collection, rarely through many at once. */
const OPEN_WRITERS = 16;

/**
 * Pages of segment merging one step writes (FTS5's 'merge' command): a step holds the
 * collection's write lock only briefly, then work waiting in the queue comes first.
 */
const MERGE_PAGES = 1000;

/** The search files opened for writing, as collections need them. */
export function openSearchWriter(sqlitePath: string, embedder: VectorEmbedder | null = null): SearchWriter {
  // The main file: which collections documents and deletions belong to; deletions applied.
  const main = new SQLite(sqlitePath, { fileMustExist: true, timeout: 0 });
  const clearDeletions = main.prepare('delete from search_deletions where id <= ?');
  const collectionsOf = main.prepare<[string], { collection: string }>(`select distinct collection_id as collection from documents where id in (select value from json_each(?))`);
  const deletionsOf = main.prepare<[number], { collection: string }>('select distinct collection_id as collection from search_deletions where id <= ?');
  const lastDeletion = main.prepare<[], { id: number | null }>('select max(id) as id from search_deletions');
  const collectionExists = main.prepare<[string], { id: string }>('select id from collections where id = ?');
  const { writers, writerOf, forget } = collectionWriters(sqlitePath, embedder);
  // Collections written since their segments were last merged into one.
  const unmerged = new Set<string>();
  const { vectorStep, annStep, written } = vectorUpkeep(main, sqlitePath, embedder, (collection) => !!collectionExists.get(collection), writerOf);

  return {
    async index(documentIds) {
      const last = lastDeletion.get()?.id ?? 0;
      if (documentIds.length === 0 && last === 0) return;
      const documents = JSON.stringify(documentIds);
      const indexing = new Set(collectionsOf.all(documents).map((row) => row.collection));
      const collections = new Set([...indexing, ...(last > 0 ? deletionsOf.all(last) : []).map((row) => row.collection)]);
      for (const collection of collections) {
        // A collection deleted meanwhile gets no file back (its documents went with it).
        if (!collectionExists.get(collection)) continue;
        // Nor does one without a file that only lost rows: it never had any indexed.
        if (!indexing.has(collection) && !writers.has(collection) && !existsSync(searchFilePath(sqlitePath, collection))) continue;
        const writer = await writerOf(collection);
        // Analyzed before the write lock is taken: the other ingestion thread writes meanwhile,
        // and a busy retry does not analyze again.
        const analyzed = await writer.analyze(documents);
        await whenUnlocked(() => writer.write(documents, analyzed, last));
        unmerged.add(collection);
        written(collection);
      }
      // Applied deletions are dropped afterwards; after a crash in between they apply again, harmlessly.
      if (last > 0) await whenUnlocked(() => clearDeletions.run(last));
    },
    async dropCollections(collectionIds) {
      for (const collectionId of collectionIds) {
        forget(collectionId);
        unmerged.delete(collectionId);
        removeSearchFile(searchFilePath(sqlitePath, collectionId));
        removeCollectionAnns(searchDirectory(sqlitePath), collectionId);
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
    vectorStep,
    annStep,
    close() {
      for (const writer of writers.values()) writer.connection.close();
      writers.clear();
      main.close();
    },
  };
}

/** The collections' writers open at once, at most OPEN_WRITERS, the least recently used closed first. */
function collectionWriters(sqlitePath: string, embedder: VectorEmbedder | null) {
  const writers = new Map<string, CollectionWriter>();
  const writerOf = async (collectionId: string): Promise<CollectionWriter> => {
    const open = writers.get(collectionId);
    if (open) {
      // Most recently used last: the first is the one to close when too many are open.
      writers.delete(collectionId);
      writers.set(collectionId, open);
      return open;
    }
    const writer = await openCollectionWriter(sqlitePath, collectionId, embedder);
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
  return { writers, writerOf, forget };
}

/**
 * SearchWriter.vectorStep: the collections whose vectors may lack rows or come from another
 * embedder (all at first, until each is found in line), one batch of one of them a step.
 * SearchWriter.annStep likewise for their nearest-rows indexes, and for collections `written` since.
 */
function vectorUpkeep(
  main: SQLite.Database,
  sqlitePath: string,
  embedder: VectorEmbedder | null,
  exists: (collectionId: string) => boolean,
  writerOf: (collectionId: string) => Promise<CollectionWriter>,
) {
  const allCollections = main.prepare<[], string>('select id from collections').pluck();
  let unembedded: Set<string> | null = null;
  let unindexed: Set<string> | null = null;
  let currentKey: string | null = null;
  const keyOf = async (embedder: VectorEmbedder) => (currentKey ??= embedderKey(embedder, (await embedDocuments(embedder, ['dimensions']))[0]!.length));
  const annStep = async (): Promise<boolean> => {
    if (!embedder) return false;
    unindexed ??= new Set(allCollections.all());
    for (const collection of unindexed) {
      if (exists(collection) && existsSync(searchFilePath(sqlitePath, collection))) {
        const writer = await writerOf(collection);
        const key = await keyOf(embedder);
        if (await whenUnlocked(() => writer.ann.step(key))) return true;
      }
      unindexed.delete(collection);
    }
    return false;
  };
  const written = (collection: string) => unindexed?.add(collection);
  const vectorStep = async () => {
    if (!embedder) return false;
    unembedded ??= new Set(allCollections.all());
    for (const collection of unembedded) {
      if (!exists(collection) || !existsSync(searchFilePath(sqlitePath, collection))) {
        unembedded.delete(collection);
        continue;
      }
      // The embedder's key (its dimensions) from a first embedding.
      if (await (await writerOf(collection)).reembed(await keyOf(embedder))) return true;
      unembedded.delete(collection);
    }
    return false;
  };
  return { vectorStep, annStep, written };
}

/** A collection's search file opened for writing (created when missing), the main file attached as `source`. */
function openWriteConnection(sqlitePath: string, collectionId: string): SQLite.Database {
  mkdirSync(searchDirectory(sqlitePath), { recursive: true });
  const file = searchFilePath(sqlitePath, collectionId);
  // A file at a collection's path is complete, tables and WAL mode included: made by
  // createSearchFile, or brought in line at start (ensureSearchFiles).
  if (!existsSync(file)) createSearchFile(file);
  // No busy timeout: waits for the lock happen in whenUnlocked, between event-loop turns.
  const connection = new SQLite(file, { timeout: 0, fileMustExist: true });
  connection.pragma('synchronous = NORMAL');
  connection.pragma('cache_size = -16384');
  connection.prepare('attach database ? as source').run(sqlitePath);
  return connection;
}

/**
 * Makes a collection's search file with its tables under a draft name, then links it into place
 * (a link, unlike a rename, never replaces a file another writer linked first). A file at a
 * collection's path is then always complete: a server starting beside a writer (a worker
 * process) never takes one being made for a broken one and rebuilds it under that writer.
 */
function createSearchFile(file: string): void {
  const draft = makeDraft(file);
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    removeSearchFile(draft);
  }
}

/**
 * A search file with its tables, and the rows `fill` writes in the same transaction, made under
 * a draft name beside `file` (the draft's name returned).
 */
function makeDraft(file: string, fill?: (connection: SQLite.Database) => void): string {
  const draft = `${file}.draft-${process.pid}-${threadId}`;
  removeSearchFile(draft);
  const connection = new SQLite(draft);
  try {
    // Before anything is written, or it applies only after a vacuum.
    connection.pragma('auto_vacuum = incremental');
    connection.pragma('journal_mode = WAL');
    connection.transaction(() => {
      createTables(connection);
      fill?.(connection);
    })();
  } finally {
    connection.close();
  }
  return draft;
}

/** Opens (creating when missing) a collection's search file and prepares its write. */
async function openCollectionWriter(sqlitePath: string, collectionId: string, embedder: VectorEmbedder | null): Promise<CollectionWriter> {
  const connection = openWriteConnection(sqlitePath, collectionId);

  const ids = `select value from json_each(?)`;
  const rows = rowWriter(connection);
  const deleted = (granularity: Granularity) =>
    `select row_id from source.search_deletions where collection_id = '${collectionId}' and fts_table = '${granularity}' and id <= ?`;
  const applyDeletions = GRANULARITIES.map((granularity) => rows.remover(granularity, deleted(granularity)));
  // A document indexed again keeps its seq: its old document-level row goes first. The `+` keeps
  // SQLite on the documents' ids: by the collection index it scanned every document of the
  // collection for each batch, a cost that grew with the collection.
  const replaceDocuments = rows.remover('documents', `select seq from source.documents where id in (${ids}) and +collection_id = '${collectionId}'`);
  const rowsOf = GRANULARITIES.map((granularity) =>
    // Documents of the batch in other collections are theirs to index.
    connection.prepare<[string, number], SourceRow>(
      `${sources[granularity](ids)} and +${collectionColumn[granularity]} = '${collectionId}' and ${seqColumn[granularity]} > ? order by rowid limit 256`,
    ),
  );
  // The write lock is taken by a plain row update first, so a busy file refuses the transaction
  // before any indexing work. Not `begin immediate`: that would lock the main file too.
  const takeLock = connection.prepare('update index_writes set writes = writes + 1');
  const ann = annUpkeep(connection, searchDirectory(sqlitePath), collectionId, GRANULARITIES.map((granularity) => [granularity, vectorsTable(granularity)]));
  const vectors = vectorWriter(connection, embedder, () => takeLock.run(), ann.replaced);
  // Rows a page at a time, documents first (RowTerms).
  const analyzeRows = async (documents: string): Promise<AnalyzedRows> => {
    const terms = new RowTerms();
    const analyzed: AnalyzedRows['terms'] = [];
    // With an embedder, each row's text as it is embedded (its opening).
    const texts: [number, string][][] = [];
    let large = false;
    for (const [i, statement] of rowsOf.entries()) {
      const granularity: IndexedRow[] = [];
      const granularityTexts: [number, string][] = [];
      for (let after = 0; ; ) {
        const page = statement.all(documents, after);
        if (page.length === 0) break;
        for (const row of page) {
          large ||= row.text.length >= COLLECT_AFTER_CHARS;
          granularity.push(await terms.of(GRANULARITIES[i]!, row));
          if (embedder) granularityTexts.push([row.rowid, terms.contentOf(GRANULARITIES[i]!, row).slice(0, EMBED_CHARS)]);
        }
        after = page.at(-1)!.rowid;
      }
      analyzed.push(granularity);
      texts.push(granularityTexts);
      // The rows of a large document read for this granularity are garbage now, several times the
      // document's size, that V8 would keep beside the next granularity's until its heap filled.
      if (large) collectGarbage();
    }
    return { terms: analyzed, vectors: await vectors.embed(texts) };
  };
  const write = connection.transaction((documents: string, analyzed: AnalyzedRows, last: number) => {
    takeLock.run();
    for (const remove of applyDeletions) remove(last);
    replaceDocuments(documents);
    GRANULARITIES.forEach((granularity, i) => {
      rows.insert(granularity, analyzed.terms[i]!);
      vectors.insert(granularity, analyzed.vectors[i] ?? []);
    });
  });
  const merge = segmentMerge(connection);
  return { connection, merge, analyze: analyzeRows, write, reembed: vectors.reembed, ann };
}

/** One step of merging a search file's segments, or of giving back the pages merges freed; false when neither was left. */
function segmentMerge(connection: SQLite.Database): () => boolean {
  // Each write adds segments to the tables that FTS5 merges only in part; a query looks a term
  // up in every segment, so after a burst of writes it pays for each until they are merged.
  // Merged to one segment per table, a step at a time.
  const merges = GRANULARITIES.map((granularity) => connection.prepare(`insert into main.${ftsTable(granularity)} (${ftsTable(granularity)}, rank) values ('merge', ?)`));
  const totalChanges = connection.prepare<[], number>('select total_changes()').pluck();
  const changes = () => totalChanges.get() ?? 0;
  const mergeSegments = connection.transaction((): boolean => {
    for (const statement of merges) {
      const before = changes();
      // Negative: any two segments are merged, whatever their levels (positive waits for FTS5's usermerge of one level).
      statement.run(-MERGE_PAGES);
      // The command itself counts one change; a merge writes pages besides.
      if (changes() - before > 1) return true;
    }
    return false;
  });
  // Merged segments leave their old pages free: the file keeps them unless given back.
  const freePages = connection.prepare<[], number>('pragma main.freelist_count').pluck();
  // True when pages were given back: a file without incremental auto-vacuum gives back none.
  const reclaim = (): boolean => {
    const free = freePages.get() ?? 0;
    if (free === 0) return false;
    connection.pragma(`main.incremental_vacuum(${MERGE_PAGES})`);
    const left = freePages.get() ?? 0;
    // The pages moved went through the log: once all are given back, so is the log (when no reader holds it).
    if (left === 0) connection.pragma('main.wal_checkpoint(TRUNCATE)');
    return left < free;
  };
  return () => mergeSegments() || reclaim();
}

/**
 * Where a collection's vectors are written: at indexing, beside its rows' postings, and again by
 * upkeep for rows whose vectors are missing (indexed before an embedder was configured, or the
 * file rebuilt) or came from another embedder. A row's text to embed is read from the main file,
 * its opening only (EMBED_CHARS), cut here as slices.ts says.
 */
function vectorWriter(
  connection: SQLite.Database,
  embedder: VectorEmbedder | null,
  takeLock: () => void,
  replaced: (granularity: Granularity, embedder: string, rowids: number[]) => void,
) {
  const inserts = GRANULARITIES.map((granularity) =>
    connection.prepare(
      `insert or replace into main.${vectorsTable(granularity)} (rowid, embedder, vector) select ?, ?, ? where exists (select 1 from main.${lengthsTable(granularity)} where rowid = ?)`,
    ),
  );
  const stale = GRANULARITIES.map((granularity) =>
    connection
      .prepare<[string, number], number>(
        `select l.rowid from main.${lengthsTable(granularity)} l left join main.${vectorsTable(granularity)} v on v.rowid = l.rowid where v.rowid is null or v.embedder <> ? limit ?`,
      )
      .pluck(),
  );
  const bounded = (r: string) => rowOpeningExpression('d', r, EMBED_CHARS, 'source.');
  const ids = 'select value from json_each(?)';
  // Snippets of either granularity are found by their rowid alone.
  const snippetTexts = `select c.seq as rowid, ${bounded('c')} as content, c.start_index as start, c.end_index as "end", ${contentFromExpression('d', 'c', 'source.')} as "contentFrom" from source.chunks c join source.documents d on d.seq = c.document_seq where c.seq in (${ids})`;
  const textSources: Record<Granularity, string> = {
    documents: `select d.seq as rowid, coalesce(${openingExpression('d', EMBED_CHARS, 'source.')}, '') as content, 0 as start, ${EMBED_CHARS} as "end", 0 as "contentFrom" from source.documents d where d.seq in (${ids})`,
    pages: `select p.seq as rowid, ${bounded('p')} as content, p.start_index as start, p.end_index as "end", ${contentFromExpression('d', 'p', 'source.')} as "contentFrom" from source.pages p join source.documents d on d.id = p.document_id where p.seq in (${ids})`,
    coarse: snippetTexts,
    fine: snippetTexts,
  };
  const texts = GRANULARITIES.map((granularity) =>
    connection.prepare<[string], { rowid: number; content: string | null; start: number; end: number; contentFrom: number }>(textSources[granularity]),
  );
  const insert = (granularity: Granularity, rows: VectorRow[]) => {
    const statement = inserts[GRANULARITIES.indexOf(granularity)]!;
    for (const row of rows) statement.run(...row, row[0]);
    // A vector written in place of one an index holds (an overwritten document keeps its rowid; re-embedding).
    if (rows.length > 0) replaced(granularity, rows[0]![1], rows.map(([rowid]) => rowid));
  };
  /** Per granularity, the vectors of these rows' texts. */
  const embed = async (rowTexts: [number, string][][]): Promise<VectorRow[][]> => {
    if (!embedder) return [];
    const vectors = await embedDocuments(embedder, rowTexts.flat().map(([, text]) => text));
    let next = 0;
    return rowTexts.map((rows) =>
      rows.map(([rowid]) => {
        const vector = vectors[next++]!;
        return [rowid, embedderKey(embedder, vector.length), vectorBytes(vector)];
      }),
    );
  };
  const writeVectors = connection.transaction((granularity: Granularity, rows: VectorRow[]) => {
    takeLock();
    insert(granularity, rows);
  });
  const reembed = async (key: string): Promise<boolean> => {
    for (const [i, granularity] of GRANULARITIES.entries()) {
      const rowids = stale[i]!.all(key, EMBED_BATCH);
      if (rowids.length === 0) continue;
      const rows = texts[i]!.all(JSON.stringify(rowids));
      // Rows deleted from the main file and not yet from this one: the next deletions take them.
      if (rows.length === 0) continue;
      const rowTexts = rows.map(({ rowid, content, start, end, contentFrom }): [number, string] => [rowid, slicedContent(content, start, end, contentFrom).slice(0, EMBED_CHARS)]);
      const [embedded] = await embed([rowTexts]);
      await whenUnlocked(() => writeVectors(granularity, embedded ?? []));
      return true;
    }
    return false;
  };
  return { insert, embed, reembed };
}

/**
 * The statements that add rows to a collection's index and remove them, keeping its statistics
 * (row lengths, rows and tokens per granularity) in step, inside the caller's transaction.
 */
function rowWriter(connection: SQLite.Database) {
  const statements = Object.fromEntries(
    GRANULARITIES.map((granularity) => {
      const fts = `main.${ftsTable(granularity)}`;
      const lengths = `main.${lengthsTable(granularity)}`;
      return [
        granularity,
        {
          postings: connection.prepare(`insert into ${fts} (rowid, terms) values (?, ?)`),
          length: connection.prepare(`insert into ${lengths} (rowid, length) values (?, ?)`),
          stats: connection.prepare(`update main.stats set rows = rows + ?, tokens = tokens + ? where granularity = '${granularity}'`),
        },
      ];
    }),
  ) as Record<Granularity, Record<'postings' | 'length' | 'stats', SQLite.Statement>>;
  return {
    insert(granularity: Granularity, rows: IndexedRow[]) {
      if (rows.length === 0) return;
      const { postings, length, stats } = statements[granularity];
      let tokens = 0;
      for (const [rowid, terms, count] of rows) {
        postings.run(rowid, terms);
        length.run(rowid, count);
        tokens += count;
      }
      stats.run(rows.length, tokens);
    },
    /**
     * A statement removing the indexed rows among those `rowids` selects (SQL taking one
     * parameter): their postings, their lengths, and their share of the statistics.
     */
    remover(granularity: Granularity, rowids: string): (parameter: unknown) => void {
      const lengths = `main.${lengthsTable(granularity)}`;
      const indexed = `select rowid from ${lengths} where rowid in (${rowids})`;
      const postings = connection.prepare(`delete from main.${ftsTable(granularity)} where rowid in (${indexed})`);
      const counted = connection.prepare<[unknown], { rows: number; tokens: number | null }>(
        `select count(*) as rows, sum(length) as tokens from ${lengths} where rowid in (${rowids})`,
      );
      const stats = statements[granularity].stats;
      const forget = connection.prepare(`delete from ${lengths} where rowid in (${rowids})`);
      const forgetVectors = connection.prepare(`delete from main.${vectorsTable(granularity)} where rowid in (${rowids})`);
      return (parameter) => {
        forgetVectors.run(parameter);
        const { rows, tokens } = counted.get(parameter)!;
        if (rows === 0) return;
        postings.run(parameter);
        stats.run(-rows, -(tokens ?? 0));
        forget.run(parameter);
      };
    },
  };
}

function createTables(connection: SQLite.Database): void {
  connection.exec('create table if not exists index_writes (writes integer not null); insert into index_writes select 0 where not exists (select 1 from index_writes);');
  connection.exec('create table if not exists stats (granularity text primary key, rows integer not null, tokens integer not null) without rowid');
  for (const granularity of GRANULARITIES) {
    // One column of postings (postingsText), not kept (the text lives once, in the main file); a
    // deleted row is removed from the postings at once (contentless_delete).
    connection.exec(
      `create virtual table if not exists ${ftsTable(granularity)} using fts5(terms, content='', contentless_delete=1, detail=none, tokenize="ascii tokenchars '_'")`,
    );
    connection.exec(`create table if not exists ${lengthsTable(granularity)} (rowid integer primary key, length integer not null)`);
    connection.exec(`create table if not exists ${vectorsTable(granularity)} (rowid integer primary key, embedder text not null, vector blob not null)`);
    connection.exec(`insert into stats (granularity, rows, tokens) select '${granularity}', 0, 0 where not exists (select 1 from stats where granularity = '${granularity}')`);
  }
  connection.pragma(`user_version = ${SEARCH_FORMAT}`);
}

function removeSearchFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}

/**
 * Brings the search files in line with the main file, at start, before anything reads them:
 * files of collections that are gone are removed (a crash after deleting a collection), and a
 * collection with indexed documents without a complete file of this format (a new or lost
 * folder, the shared file of migration 006, a file of an earlier format) gets one, filled from
 * its indexed documents' text.
 */
export function ensureSearchFiles(sqlitePath: string): void {
  // Migration 006's shared search file: its rows now live in each collection's file.
  removeSearchFile(sqlitePath.endsWith('.db') ? `${sqlitePath.slice(0, -'.db'.length)}-search.db` : `${sqlitePath}-search`);
  const directory = searchDirectory(sqlitePath);
  mkdirSync(directory, { recursive: true });
  // Listed before the collections are read: a collection's row comes before its file, so a file
  // listed whose collection is not read is one of a collection that is gone.
  const names = readdirSync(directory);
  const main = new SQLite(sqlitePath, { readonly: true, fileMustExist: true });
  let collections: { id: string; indexed: number }[];
  try {
    const hasCollections = main.prepare(`select 1 from sqlite_master where name = 'collections'`).get();
    collections = hasCollections
      ? main
          .prepare<[], { id: string; indexed: number }>(
            `select c.id, exists (select 1 from documents d where d.collection_id = c.id and d.index_status = 'indexed') as indexed from collections c`,
          )
          .all()
      : [];
  } finally {
    main.close();
  }
  const live = new Set(collections.map((collection) => collection.id));
  for (const name of names) {
    const base = name.replace(/-(wal|shm|journal)$/, '');
    const id = COLLECTION_FILE.exec(base)?.[1] ?? ANN_FILE.exec(name)?.[1];
    // A draft is one a writer stopped making (or, beside a worker process, one it makes now: its batch is retried).
    if ((id && !live.has(id)) || DRAFT_FILE.test(base)) rmSync(join(directory, name), { force: true });
  }
  for (const { id, indexed } of collections) {
    const file = searchFilePath(sqlitePath, id);
    if (existsSync(file) ? isComplete(file) : !indexed) continue;
    rebuildCollection(sqlitePath, id);
  }
}

function isComplete(file: string): boolean {
  const connection = new SQLite(file, { readonly: true });
  try {
    return connection.pragma('user_version', { simple: true }) === SEARCH_FORMAT;
  } finally {
    connection.close();
  }
}

/**
 * A collection's search file made anew from its indexed documents' stored rows, under a draft
 * name, then renamed over the old one: its path never holds a file half made.
 */
export function rebuildCollection(sqlitePath: string, collectionId: string): void {
  const file = searchFilePath(sqlitePath, collectionId);
  // The file's vectors go with it (upkeep embeds its rows again), and so do their indexes.
  removeCollectionAnns(searchDirectory(sqlitePath), collectionId);
  const draft = makeDraft(file, (connection) => fillFromSource(connection, sqlitePath, collectionId));
  removeSearchFile(file);
  renameSync(draft, file);
  const main = new SQLite(sqlitePath, { fileMustExist: true });
  try {
    main.prepare('delete from search_deletions where collection_id = ?').run(collectionId);
  } finally {
    main.close();
  }
}

/**
 * A new search file's rows from the collection's indexed documents, 64 at a time, and their rows
 * a page at a time (better-sqlite3 runs one statement at a time on a connection). Paging the rows
 * of the whole collection at once re-read every remaining row for each page of 256, a cost that
 * grew with the square of the collection's size.
 */
function fillFromSource(connection: SQLite.Database, sqlitePath: string, collectionId: string): void {
  connection.prepare('attach database ? as source').run(sqlitePath);
  const documentsAfter = connection.prepare<[string], string>(
    `select id from source.documents where collection_id = '${collectionId}' and index_status = 'indexed' and id > ? order by id limit 64`,
  );
  documentsAfter.pluck();
  const rows = rowWriter(connection);
  const pages = GRANULARITIES.map((granularity) =>
    connection.prepare<[string, number], SourceRow>(`${sources[granularity]('select value from json_each(?)')} and ${seqColumn[granularity]} > ? order by rowid limit 256`),
  );
  for (let last = ''; ; ) {
    const ids = documentsAfter.all(last);
    if (ids.length === 0) break;
    last = ids.at(-1)!;
    const documents = JSON.stringify(ids);
    const terms = new RowTerms();
    for (const [i, statement] of pages.entries()) {
      const granularity = GRANULARITIES[i]!;
      for (let after = 0; ; ) {
        const page = statement.all(documents, after);
        if (page.length === 0) break;
        rows.insert(
          granularity,
          page.map((row) => terms.ofNow(granularity, row)),
        );
        after = page.at(-1)!.rowid;
      }
    }
  }
}
