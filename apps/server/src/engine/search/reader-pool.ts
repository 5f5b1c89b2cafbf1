import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { HNSWLIB_PATH } from './sqlite-ann.ts';

/**
 * Searches off the HTTP thread: worker threads, each with a read-only connection to the database
 * (a collection's search file attached as `search`) and its prepared statements, answer SQL sent to them.
 * Queries go to the first thread until it falls behind (SPILL_AT), then to the thread with the
 * fewest in flight, so queries run in parallel, one thread per core by default, when one cannot
 * keep up, while the HTTP thread only parses, dispatches and serialises. SQLite readers
 * in WAL mode never wait for writers, so ingestion does not hold them up either.
 */
export interface ReaderPool {
  /**
   * Runs a query on a connection with `searchFile` attached as `search`; no rows when that file
   * does not exist (a collection with nothing indexed, or deleted meanwhile). `setup`, when given,
   * runs once per connection before the query (e.g. a temporary table it reads).
   */
  all<Row>(searchFile: string, text: string, parameters: readonly unknown[], setup?: string): Promise<Row[]>;
  close(): Promise<void>;
}

export const defaultReaderThreads = (): number => availableParallelism();

/**
 * Plain JavaScript, so the threads need no TypeScript loader. Each thread keeps read-only
 * connections for the search files it was asked about most recently (a file replaced since, by a
 * rebuild, is opened again within STAT_MS), each with its prepared statements.
 */
const readerThread = `
const { readFileSync, statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
// hnswlib-node (sqlite-ann.ts HNSWLIB_PATH) is loaded with the first index read: never without one.
let hnswlib = null;
const graphOf = (dimensions) => new (hnswlib ??= require(workerData.hnswlib)).HierarchicalNSW('ip', dimensions);
const OPEN_FILES = 32;
const open = new Map();
const close = (file) => {
  open.get(file)?.connection.close();
  open.delete(file);
};
// A file replaced (a rebuild) or removed (a deleted collection) is noticed within STAT_MS: stating it
// on every query is a system call per search for a change that is rare, and a deleted collection's
// searches are refused before they get here.
const STAT_MS = 250;
const reader = (file) => {
  const current = open.get(file);
  const now = Date.now();
  if (current && now - current.statedAt < STAT_MS) return current;
  let inode;
  try {
    inode = statSync(file).ino;
  } catch {
    close(file);
    return null;
  }
  if (current && current.inode === inode) {
    current.statedAt = now;
    // Most recently used last: the first is the one to close when too many are open.
    open.delete(file);
    open.set(file, current);
    return current;
  }
  close(file);
  const connection = new SQLite(workerData.databasePath, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  connection.prepare('attach database ? as search').run(file);
  connection.function('vector_similarity', { deterministic: true }, vectorSimilarity);
  const opened = { connection, inode, statedAt: now, statements: new Map(), setups: new Set(), anns: new Map() };
  connection.function('ann_nearest', { deterministic: true }, (base, query, count) => annNearest(opened, base, query, count));
  connection.function('ann_through', { deterministic: true }, (base) => annOf(opened, base).through);
  open.set(file, opened);
  if (open.size > OPEN_FILES) close(open.keys().next().value);
  return opened;
};
// The dot product of two stored vectors (unit vectors: their cosine), null for vectors of different sizes.
const floats = (blob) => (blob.byteOffset % 4 === 0 ? new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2) : new Float32Array(new Uint8Array(blob).buffer));
const vectorSimilarity = (a, b) => {
  if (!a || !b || a.length !== b.length) return null;
  const x = floats(a);
  const y = floats(b);
  let dot = 0;
  for (let i = 0; i < x.length; i++) dot += x[i] * y[i];
  return dot;
};
// Nearest-rows indexes (sqlite-ann.ts) of this search file's collection, by their files' base, kept
// on its reader (closed with it): the record is read before the graph is loaded, so a record never
// claims rows its graph lacks. Refreshed at most once a query (both functions of a statement see the
// same index) and once every STAT_MS; a graph replaced since is loaded whole again.
// A search walks the graph EF wide, ten times the 400 candidates it takes for a fusion's 100 rows
// (sqlite.ts ANN_CANDIDATES): narrower walks missed much of the exact top 10 of random vectors.
const EF = 4000;
let queryNumber = 0;
const annOf = (opened, base) => {
  const current = opened.anns.get(base);
  const now = Date.now();
  if (current && (current.query === queryNumber || now - current.statedAt < STAT_MS)) return current;
  let entry = { through: 0, index: null, inode: null };
  // Without hnswlib-node (sqlite-ann.ts HNSWLIB_PATH) no index is read: every row is scanned exactly.
  if (workerData.hnswlib) {
    try {
      const meta = JSON.parse(readFileSync(base + '.json', 'utf8'));
      // Its inode, size and time: an inode alone may be reused by a later rebuild's file.
      const stat = statSync(base + '.hnsw');
      const inode = stat.ino + ':' + stat.size + ':' + stat.mtimeMs;
      if (current && current.inode === inode) entry = { ...current, through: meta.through };
      else {
        const index = graphOf(meta.dimensions);
        index.readIndexSync(base + '.hnsw');
        index.setEf(EF);
        entry = { through: meta.through, index, inode };
      }
    } catch {
      // No index, or one being replaced this instant: every row is scanned exactly.
    }
  }
  Object.assign(entry, { query: queryNumber, statedAt: now });
  opened.anns.set(base, entry);
  return entry;
};
// The rowids of the \`count\` rows nearest the query in the index, as a JSON array (none without one).
const annNearest = (opened, base, query, count) => {
  const { index } = annOf(opened, base);
  if (!index || !query) return '[]';
  const k = Math.min(count, index.getCurrentCount());
  if (k <= 0 || query.byteLength !== index.getNumDimensions() * 4) return '[]';
  return JSON.stringify(index.searchKnn(Array.from(floats(query)), k).neighbors);
};
const answer = ({ id, file, text, parameters, setup }) => {
  queryNumber++;
  try {
    const collection = reader(file);
    if (!collection) return { id, columns: [], rows: [] };
    if (setup && !collection.setups.has(setup)) {
      collection.connection.exec(setup);
      collection.setups.add(setup);
    }
    let prepared = collection.statements.get(text);
    if (!prepared) {
      // Filters make distinct SQL; a bounded cache keeps the common shapes prepared.
      if (collection.statements.size >= 64) collection.statements.clear();
      const statement = collection.connection.prepare(text).raw(true);
      prepared = { statement, columns: statement.columns().map((column) => column.name) };
      collection.statements.set(text, prepared);
    }
    // Rows as arrays and their column names: copying objects between threads costs more.
    // A Buffer (a vector) comes through postMessage as a plain Uint8Array, which the driver does not bind.
    const bound = parameters.map((value) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value));
    return { id, columns: prepared.columns, rows: prepared.statement.all(...bound) };
  } catch (error) {
    return { id, error: { message: String(error && error.message), code: error && error.code } };
  }
};
parentPort.on('message', (queries) => parentPort.postMessage(queries.map(answer)));
`;

/** Queries waiting for one thread that are sent to it at once (see `sendWaiting`). */
const SEND_AT = 6;

/**
 * Queries in flight on the first thread before others are sent any. Spread evenly, every reader
 * and the HTTP thread were runnable at once and took turns on the cores, serving fewer searches
 * than when the first reader takes all it keeps up with and the others only the rest. A slow
 * query on the first thread holds those behind it until SPILL_AT are waiting, so with slow
 * searches among many fast ones the rest fare as well as spread evenly (`bench/fair-probe.ts`
 * measures it).
 */
const SPILL_AT = 40;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/** A thread's answer to one query: its rows as arrays and their column names, or the driver's error. */
type Answer = { id: number; columns: string[]; rows: unknown[][] } | { id: number; error: { message: string; code?: string } };

interface Query {
  id: number;
  file: string;
  text: string;
  parameters: readonly unknown[];
  setup?: string;
}

/** `hnswlib`: the library's path, null to read no nearest-rows index (as where it is not installed). */
export function openReaderPool(options: { databasePath: string; threads: number; hnswlib?: string | null }): ReaderPool {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const hnswlib = options.hnswlib === undefined ? HNSWLIB_PATH : options.hnswlib;
  let nextId = 0;
  const threads = Array.from({ length: Math.max(1, options.threads) }, () => {
    const worker = new Worker(readerThread, { eval: true, workerData: { driver, hnswlib, databasePath: options.databasePath } });
    // Idle readers do not keep the process alive.
    worker.unref();
    const pending = new Map<number, Pending>();
    worker.on('message', (answers: Answer[]) => {
      for (const answer of answers) {
        const waiting = pending.get(answer.id);
        if (!waiting) continue;
        pending.delete(answer.id);
        // Rebuilt as the driver's own error, so callers tell its codes apart as on the HTTP thread.
        if ('error' in answer) waiting.reject(new SQLite.SqliteError(answer.error.message, answer.error.code ?? 'SQLITE_ERROR'));
        else waiting.resolve(rowObjects(answer.columns, answer.rows));
      }
    });
    worker.on('error', (error) => {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    });
    return { worker, pending, outbox: [] as Query[] };
  });

  // The queries of one event-loop turn go to each thread in few messages, each answered in one: a
  // message costs a wake-up on each side, more than a query's rows cost to copy. A thread gets its
  // queries once SEND_AT are waiting, without waiting for the end of the turn: given a whole turn's
  // queries at once, it sat idle while the HTTP thread read them, and the HTTP thread then idled
  // while it answered them all.
  const send = (thread: (typeof threads)[number], queries: Query[]) => {
    try {
      thread.worker.postMessage(queries);
    } catch (error) {
      // A parameter that cannot be copied to the thread fails its query, not the others sent with it.
      if (queries.length > 1) return queries.forEach((query) => send(thread, [query]));
      thread.pending.get(queries[0]!.id)?.reject(error as Error);
      thread.pending.delete(queries[0]!.id);
    }
  };
  const sendWaiting = (thread: (typeof threads)[number]) => {
    const queries = thread.outbox;
    thread.outbox = [];
    send(thread, queries);
  };
  let flushing = false;
  const flush = () => {
    flushing = false;
    for (const thread of threads) if (thread.outbox.length > 0) sendWaiting(thread);
  };

  return {
    all<Row>(searchFile: string, text: string, parameters: readonly unknown[], setup?: string) {
      const thread =
        threads[0]!.pending.size < SPILL_AT ? threads[0]! : threads.reduce((least, candidate) => (candidate.pending.size < least.pending.size ? candidate : least));
      const id = nextId++;
      return new Promise<Row[]>((resolve, reject) => {
        thread.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
        thread.outbox.push({ id, file: searchFile, text, parameters, setup });
        if (thread.outbox.length >= SEND_AT) sendWaiting(thread);
        else if (!flushing) {
          flushing = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      await Promise.all(threads.map(({ worker }) => worker.terminate()));
    },
  };
}

function rowObjects(columns: string[], rows: unknown[][]): Record<string, unknown>[] {
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
    return row;
  });
}
