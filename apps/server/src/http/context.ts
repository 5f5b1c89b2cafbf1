import type { FastifyRequest } from 'fastify';
import { createKeyring, type Keyring } from '../auth/keyring.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { FileStore } from '../domain/file-store.ts';
import { type LimitStore, openLimitStore } from '../limits/limit-store.ts';
import { openFileStore, openObjectStoreCheck } from '../storage/open-file-store.ts';
import { createMetrics, type Metrics } from './metrics.ts';

/** What the process around the app tells its probes. */
export interface Lifecycle {
  /** This server runs ingestion itself (its threads serve the queue). */
  ownIngestion(): boolean;
  /** SIGTERM came: readiness says 503 so load balancers stop sending requests. */
  draining(): boolean;
}

/** What route plugins are given: they pass it on to domain services and never keep state. */
export interface AppContext {
  config: Config;
  database: Database;
  keyring: Keyring;
  /** Where raw files live (storage/open-file-store.ts): chosen once at start, passed in. */
  files: FileStore;
  /** Whether the object store answers, when one is configured (readiness, the end of an outage). */
  objectStore: { check(): Promise<void>; close(): void } | null;
  /** Where the installation's limits count (shared by every server). */
  limits: LimitStore;
  metrics: Metrics;
  lifecycle: Lifecycle;
}

/** The context of a server on this configuration and database; `lifecycle` defaults to no own ingestion. */
export function createAppContext(config: Config, database: Database, lifecycle?: Lifecycle): AppContext {
  return {
    config,
    database,
    keyring: createKeyring(config.secret),
    files: openFileStore(config.storage, database, config.dataDir),
    objectStore: openObjectStoreCheck(config.storage),
    limits: openLimitStore(config, database),
    metrics: createMetrics(database),
    lifecycle: lifecycle ?? { ownIngestion: () => false, draining: () => false },
  };
}

/** The address the dashboard is reached at: PUBLIC_URL, else what the browser used. */
export function dashboardUrl(config: Config, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
