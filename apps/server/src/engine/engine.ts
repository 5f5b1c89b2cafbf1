import { sql } from 'kysely';
import { type Clock, systemClock } from '../clock.ts';
import type { Database } from '../db/schema.ts';
import type { FileStore } from '../file-store.ts';
import { type Backend, backendOf } from './backend.ts';
import { Parser } from './ingest/parse.ts';
import type { ParseLimits } from './ingest/parse-pool.ts';
import { type IngestLog, type IngestWorkerOptions, type IngestWorkers, startIngestWorkers } from './ingest/worker.ts';
import type { DocumentUsage } from './ingest/usage.ts';
import { defaultLeaseRules, type DocumentQueue, documentQueue, type LeaseRules } from './queue/document-queue.ts';
import { SearchActivity } from './search-activity.ts';
import { createSearchEngine, type SearchEngine, type VectorEmbedder } from './search/index.ts';

export type { Backend } from './backend.ts';
export type { DocumentUsage, IngestCollection } from './ingest/usage.ts';
export type { IngestWorkers } from './ingest/worker.ts';
export type { Parser } from './ingest/parse.ts';
export type { ClaimedDocument, DocumentQueue, LeaseRules } from './queue/document-queue.ts';
export type { SearchEngine, VectorEmbedder } from './search/index.ts';

export interface EngineDependencies {
  database: Database;
  /** Where raw files are read from (the installation's store, chosen at start). */
  files: FileStore;
  /** Where documents parsed and indexed are counted: the domain's port (domain/usage-events.ts). */
  usage: DocumentUsage;
  /**
   * The operator's embedding model (SIFT_EMBEDDING_*), or none: with one, documents get vectors
   * as they are indexed and searches are hybrid (search/vectors.ts).
   */
  embedder?: VectorEmbedder | null;
  log?: IngestLog;
  clock?: Clock;
  /** The parse processes' bounds (SIFT_PARSE_*); by default parse-pool.ts's. */
  parseLimits?: ParseLimits;
  options?: {
    /** The backend the engine is written for; by default the database's (its configuration chose it). */
    backend?: Backend;
    leases?: Partial<LeaseRules>;
    /** An ingestion thread's view of its server's search activity (the server's engine makes its own). */
    searchActivity?: SearchActivity;
  };
}

/** What the domain reaches search and the document queue through. */
export interface EngineServices {
  readonly search: SearchEngine;
  readonly queue: DocumentQueue;
  /** The parsers ingestion reads files with; `close` ends their processes (shutdown). */
  readonly parser: Parser;
}

export interface Engine extends EngineServices {
  readonly backend: Backend;
  /** Searches this engine answered; its buffer goes to the server's ingestion threads. */
  readonly searchActivity: SearchActivity;
  /** Ingestion loops in this thread over the queue (`files` and `parser` override the engine's: tests). */
  startIngestion(options: Pick<IngestWorkerOptions, 'concurrency' | 'idlePollMs' | 'leases'> & Partial<Pick<IngestWorkerOptions, 'files' | 'parser'>>): Promise<IngestWorkers>;
  /**
   * For a connection that mostly ingests (SQLite): a larger page cache keeps the full-text
   * segments and B-tree pages it keeps touching in memory, and it checkpoints the WAL every ~16 MB
   * (the HTTP connection leaves checkpoints to it, see sqlite-dialect.ts). PostgreSQL is tuned on its server.
   */
  tuneForIngestion(): Promise<void>;
}

/** The engine of one database handle: its search, its queue and their state, built once from its dependencies. */
export function createEngine({ database, files, usage, embedder = null, log, clock = systemClock, parseLimits, options = {} }: EngineDependencies): Engine {
  const backend = options.backend ?? backendOf(database);
  const rules = { ...defaultLeaseRules, ...options.leases };
  const searchActivity = options.searchActivity ?? new SearchActivity();
  const search = createSearchEngine(database, backend, searchActivity, embedder);
  const queue = documentQueue(database, backend, clock, rules);
  const parser = new Parser(parseLimits);
  return {
    backend,
    search,
    queue,
    parser,
    searchActivity,
    startIngestion: (ingestion) =>
      startIngestWorkers({ database, backend, queue, search, parser, usage, log, searchActivity, files, ...ingestion, leases: { ...rules, ...ingestion.leases } }),
    async tuneForIngestion() {
      if (backend !== 'sqlite') return;
      await sql`pragma cache_size = -65536`.execute(database.db);
      await sql`pragma wal_autocheckpoint = 4000`.execute(database.db);
    },
  };
}
