import type { FastifyRequest } from 'fastify';
import { createKeyring, type Keyring } from '../auth/keyring.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { createVerifiedApiKeys } from '../domain/api-keys.ts';
import { createFoundCollections } from '../domain/collections.ts';
import type { Lookups } from '../domain/lookups.ts';
import type { ApiKeyActor } from '../domain/provider-actor.ts';
import { QueryUsage } from '../domain/query-usage.ts';
import { addDocumentEvent, type CollectionRef } from '../domain/usage-events.ts';
import { modelRegistry } from '../domain/models/registry.ts';
import { createEngine, type Engine } from '../engine/engine.ts';
import { indexingEmbedder } from '../engine/models/configured.ts';
import type { FileStore } from '../file-store.ts';
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
  /** Search and the document queue (engine/engine.ts): built once here, passed to domain services. */
  engine: Engine;
  /** Whether the object store answers, when one is configured (readiness, the end of an outage). */
  objectStore: { check(): Promise<void>; close(): void } | null;
  /** Where the installation's limits count (shared by every server). */
  limits: LimitStore;
  metrics: Metrics;
  lifecycle: Lifecycle;
  /** API keys and collections this server looked up lately (trusted for a second, forgotten when they change). */
  verifiedApiKeys: Lookups<ApiKeyActor>;
  foundCollections: Lookups<CollectionRef>;
  /** Query usage counted in memory, written once a second. */
  queryUsage: QueryUsage;
}

/** The context of a server on this configuration and database; `lifecycle` defaults to no own ingestion. */
export function createAppContext(config: Config, database: Database, lifecycle?: Lifecycle): AppContext {
  const files = openFileStore(config.storage, database, config.dataDir);
  return {
    config,
    database,
    keyring: createKeyring(config.secret),
    files,
    engine: createEngine({ database, files, usage: addDocumentEvent, embedder: indexingEmbedder(config.models, modelRegistry(config.models).embedder), parseLimits: config.parseLimits }),
    objectStore: openObjectStoreCheck(config.storage),
    limits: openLimitStore(config, database),
    metrics: createMetrics(database),
    lifecycle: lifecycle ?? { ownIngestion: () => false, draining: () => false },
    verifiedApiKeys: createVerifiedApiKeys(),
    foundCollections: createFoundCollections(),
    queryUsage: new QueryUsage(database),
  };
}

/** The address the dashboard is reached at: PUBLIC_URL, else what the browser used. */
export function dashboardUrl(config: Config, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
