import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

/**
 * Searches off the HTTP thread: worker threads, each with a read-only connection to the database
 * (the search file attached as `search`) and its prepared statements, answer SQL sent to them.
 * A query goes to the thread with the fewest in flight, so queries run in parallel, one per
 * core by default, while the HTTP thread only parses, dispatches and serialises. SQLite readers
 * in WAL mode never wait for writers, so ingestion does not hold them up either.
 */
export interface ReaderPool {
  /** `setup`, when given, runs once per connection before the query (e.g. a temporary table it reads). */
  all<Row>(text: string, parameters: readonly unknown[], setup?: string): Promise<Row[]>;
  close(): Promise<void>;
}

export const defaultReaderThreads = (): number => availableParallelism();

/** Plain JavaScript, so the threads need no TypeScript loader. */
const readerThread = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const connection = new SQLite(workerData.databasePath, { readonly: true, fileMustExist: true });
connection.pragma('busy_timeout = 5000');
connection.prepare('attach database ? as search').run(workerData.searchPath);
const statements = new Map();
const setups = new Set();
parentPort.on('message', ({ id, text, parameters, setup }) => {
  try {
    if (setup && !setups.has(setup)) {
      connection.exec(setup);
      setups.add(setup);
    }
    let statement = statements.get(text);
    if (!statement) {
      // Collections and filters make distinct SQL; a bounded cache keeps the common shapes prepared.
      if (statements.size >= 256) statements.clear();
      statement = connection.prepare(text);
      statements.set(text, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

export function openReaderPool(options: { databasePath: string; searchPath: string; threads: number }): ReaderPool {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let nextId = 0;
  const threads = Array.from({ length: Math.max(1, options.threads) }, () => {
    const worker = new Worker(readerThread, { eval: true, workerData: { driver, databasePath: options.databasePath, searchPath: options.searchPath } });
    // Idle readers do not keep the process alive.
    worker.unref();
    const pending = new Map<number, Pending>();
    worker.on('message', (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      // Rebuilt as the driver's own error, so callers tell its codes apart as on the HTTP thread.
      if (message.error) waiting.reject(new SQLite.SqliteError(message.error.message, message.error.code ?? 'SQLITE_ERROR'));
      else waiting.resolve(message.rows ?? []);
    });
    worker.on('error', (error) => {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
    });
    return { worker, pending };
  });

  return {
    all<Row>(text: string, parameters: readonly unknown[], setup?: string) {
      const thread = threads.reduce((least, candidate) => (candidate.pending.size < least.pending.size ? candidate : least));
      const id = nextId++;
      return new Promise<Row[]>((resolve, reject) => {
        thread.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
        thread.worker.postMessage({ id, text, parameters, setup });
      });
    },
    async close() {
      await Promise.all(threads.map(({ worker }) => worker.terminate()));
    },
  };
}
