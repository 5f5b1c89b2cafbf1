import { Worker } from 'node:worker_threads';
import type { ModelsConfig, StorageConfig } from '../../config.ts';
import type { ParseLimits } from './parse-pool.ts';
import type { Engine } from '../engine.ts';

export interface IngestThreadOptions {
  /** The thread's module (a file URL): it opens its own database and engine (src/ingest-thread.ts). */
  entry: URL;
  /** The server's engine: documents it queues wake the thread, searches it answers pace it. */
  engine: Pick<Engine, 'queue' | 'searchActivity'>;
  dataDir: string;
  databaseUrl?: string;
  storage: StorageConfig;
  /** The operator's models: the thread builds its own embedder from them (the server's is not shareable). */
  models: ModelsConfig;
  /** The server's parse bounds (SIFT_PARSE_*): the thread's engine parses with them. */
  parseLimits: ParseLimits;
  concurrency: number;
  /** This thread also keeps the write-ahead logs small (one thread of the server does; wal-checkpoint.ts). */
  checkpoints: boolean;
  /** The thread's CPU priority below the HTTP and search threads' (SIFT_INGEST_NICE). */
  nice: number;
  log: { info(message: string): void; error(object: unknown, message?: string): void };
}

/** What a thread is started with (its workerData). */
export interface IngestThreadData {
  dataDir: string;
  databaseUrl?: string;
  storage: StorageConfig;
  models: ModelsConfig;
  parseLimits: ParseLimits;
  concurrency: number;
  graceMs: number;
  checkpoints: boolean;
  nice: number;
  /** The server's count of searches answered (SearchActivity's buffer), shared with the thread. */
  searchActivity: SharedArrayBuffer;
}

/**
 * On stop, documents in hand get this long to finish; the rest go back to the queue, so a
 * stopping server exits well within the 10 s an orchestrator grants after SIGTERM.
 */
const STOP_GRACE_MS = 5000;

/**
 * The source of a thread (`eval: true`) that runs the TypeScript module at `entry` (a file URL).
 * The server runs its TypeScript through tsx, whose loader a new thread does not inherit: the
 * thread registers it before loading its entry.
 */
export const typeScriptThreadSource = (entry: string): string =>
  `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;

/**
 * The server's ingestion workers on a thread of their own: parsing, chunking and full-text
 * indexing run beside the HTTP event loop instead of between its requests, with their own
 * database connection. Documents queued by this thread's services wake them at once.
 */
export function startIngestThread(options: IngestThreadOptions): { stop(): Promise<void> } {
  const workerData: IngestThreadData = {
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    storage: options.storage,
    models: options.models,
    parseLimits: options.parseLimits,
    concurrency: options.concurrency,
    graceMs: STOP_GRACE_MS,
    checkpoints: options.checkpoints,
    nice: options.nice,
    searchActivity: options.engine.searchActivity.shared,
  };
  const worker = new Worker(typeScriptThreadSource(options.entry.href), { eval: true, workerData });
  let exited = false;
  worker.once('exit', () => {
    exited = true;
  });
  const unsubscribe = options.engine.queue.onQueued(() => worker.postMessage({ type: 'queued' }));
  worker.on('message', (message: { type: 'info' | 'error'; text: string; detail?: unknown }) => {
    if (message.type === 'info') options.log.info(message.text);
    else options.log.error({ detail: message.detail }, message.text);
  });
  worker.on('error', (error) => options.log.error({ err: error }, 'ingest: the worker thread failed'));
  return {
    async stop() {
      unsubscribe();
      if (exited) return;
      const done = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ type: 'stop' });
      // A thread stuck past its grace (a long synchronous parse) is ended: its leases run out
      // and put the work back.
      const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS + 2000);
      await done;
      clearTimeout(timer);
    },
  };
}
