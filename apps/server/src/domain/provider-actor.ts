import type { FileLinks, PageImageLinks } from './file-links.ts';
import type { FileStore } from '../file-store.ts';
import type { ByteRateLimiter } from './models/rate-limit.ts';
import type { ModelRegistry } from './models/registry.ts';
import type { Lookups } from './lookups.ts';
import type { QueryUsage } from './query-usage.ts';
import type { CollectionRef } from './usage-events.ts';

export type ApiKeyPermission = 'all' | 'read_only';

/** What a bearer API key speaks for (api-keys.ts authenticateApiKey). */
export interface ApiKeyActor {
  organizationId: string;
  apiKeyId: string;
  permission: ApiKeyPermission;
}

/**
 * Who calls a provider service, and what the service needs on their behalf: the organization
 * and permission of the API key, where that organization's raw files live, how this response
 * links to files and page images, and the reranker's byte budget. Every provider route builds it
 * the same way (http/routes/provider/actor.ts) and every provider service takes
 * `(database, actor, input)`.
 */
export interface ProviderActor {
  organizationId: string;
  permission: ApiKeyPermission;
  files: FileStore;
  fileUrls: FileLinks;
  pageImageUrl: PageImageLinks;
  /** The reranker's per-organization byte budget, shared by every server (see limits/byte-budget.ts). */
  rerankLimiter: ByteRateLimiter;
  /** Collections this server found lately by name (queries), forgotten when one is deleted. */
  foundCollections: Lookups<CollectionRef>;
  /** This server's query usage, counted before it is written (query-usage.ts). */
  queryUsage: QueryUsage;
  /** The models this server serves (registry.ts); absent, the built-in ones. */
  models?: ModelRegistry;
  /** Milliseconds since the epoch; picks the usage minute (tests move it). */
  now?: () => number;
}
