import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_PARSE_LIMITS } from './engine/ingest/parse-pool.ts';

/** Every setting Sift reads, in one place. The README documents each with its default. */
const Env = z.object({
  PORT: z.coerce.number().int().positive().default(8000),
  HOST: z.string().optional(),
  SIFT_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  SIFT_SECRET: z.string().min(16).optional(),
  PUBLIC_URL: z.url().optional(),
  DOCS_URL: z.string().default('/docs'),
  OIDC_ISSUER: z.url().default('https://accounts.google.com'),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /**
   * Local sign-in (no identity provider) trusts whoever reaches the server: it listens on loopback
   * only, unless this says the operator knows and wants it on the network.
   */
  SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK: z.stringbool().default(false),
  /** Tests run the OpenID flow against an issuer on plain-HTTP loopback. */
  OIDC_ALLOW_INSECURE: z.stringbool().default(false),
  BILLING_PROVIDER: z.enum(['local', 'stripe']).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  SIFT_INGEST_WORKERS: z.coerce.number().int().min(0).default(1),
  SIFT_INGEST_THREADS: z.coerce.number().int().min(1).default(2),
  SIFT_INGEST_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** Longest one file's parse may take (PDF, DOCX, HTML, OCR), in seconds; the parse is killed then. */
  SIFT_PARSE_TIMEOUT_S: z.coerce.number().positive().default(DEFAULT_PARSE_LIMITS.timeoutMs / 1000),
  /**
   * Most memory one file's parse may hold, in MB; the parse is killed past it. With the server's own
   * few hundred MB, a parse at this cap keeps the whole server under 1.5 GB.
   */
  SIFT_PARSE_MEMORY_MB: z.coerce.number().int().min(64).default(DEFAULT_PARSE_LIMITS.memoryMb),
  /** The admin API's bearer key (/v1/admin/*); unset, the admin API refuses every call. */
  SIFT_ADMIN_KEY: z.string().min(16).optional(),
  /** SQLite: threads answering searches; unset, one per core. */
  SIFT_SEARCH_THREADS: z.coerce.number().int().min(1).optional(),
  /** PostgreSQL: connections of the pool that runs filtered searches; unset, four per core, at most 20. */
  SIFT_SEARCH_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  /** PostgreSQL: pipelined connections that run searches without a filter; unset, one per core but one. */
  SIFT_SEARCH_PIPELINES: z.coerce.number().int().min(1).optional(),
  /** An S3-compatible object store for raw files (with DATABASE_URL; else they go into PostgreSQL). */
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_REGION: z.string().optional(),
  /** Path-style addressing (`endpoint/bucket/key`), what MinIO and most self-hosted stores expect. */
  S3_FORCE_PATH_STYLE: z.stringbool().optional(),
  /** Shared limits in Redis instead of PostgreSQL. */
  REDIS_URL: z.string().optional(),
  /** When set, GET /metrics asks for `Authorization: Bearer <token>`. */
  SIFT_METRICS_TOKEN: z.string().optional(),
  /**
   * `warn` by default: `info` logs two lines per request, a cost searches under load feel.
   * `info` gives the request log.
   */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
});

export type Config = ReturnType<typeof loadConfig>;

/** Settings Sift cannot use; the message names each variable and what it expects. */
export class ConfigError extends Error {}

/** For a process's entry point: settings it cannot use print what is wrong and exit 1, without a stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  return orExitOnConfigError(() => loadConfig(env));
}

/** What `check` returns; a ConfigError it throws is printed, and the process exits 1. */
export function orExitOnConfigError<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const result = Env.safeParse(withoutEmpty(env));
  if (!result.success) throw new ConfigError(`Sift cannot start with these settings:\n${z.prettifyError(result.error)}`);
  const parsed = result.data;
  const dataDir = resolve(parsed.SIFT_DATA_DIR);
  makePrivateFolder(dataDir);
  const clientId = parsed.OIDC_CLIENT_ID ?? parsed.GOOGLE_CLIENT_ID;
  const clientSecret = parsed.OIDC_CLIENT_SECRET ?? parsed.GOOGLE_CLIENT_SECRET;
  return {
    port: parsed.PORT,
    // Local sign-in trusts whoever reaches the server, so without an identity provider Sift
    // listens on this machine only unless told otherwise.
    host: parsed.HOST ?? (clientId ? '0.0.0.0' : 'localhost'),
    allowLocalSignInOnNetwork: parsed.SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK,
    dataDir,
    databaseUrl: parsed.DATABASE_URL,
    secret: parsed.SIFT_SECRET ?? readOrCreateSecret(dataDir),
    /** The secret came from this machine's data folder: fine on one machine, wrong on several. */
    secretIsLocal: !parsed.SIFT_SECRET,
    publicUrl: parsed.PUBLIC_URL?.replace(/\/$/, ''),
    docsUrl: parsed.DOCS_URL,
    oidc: clientId
      ? { issuer: parsed.OIDC_ISSUER, clientId, clientSecret, allowInsecure: parsed.OIDC_ALLOW_INSECURE }
      : null,
    billingProvider: parsed.BILLING_PROVIDER ?? (parsed.STRIPE_SECRET_KEY ? 'stripe' : 'local'),
    stripe: { secretKey: parsed.STRIPE_SECRET_KEY, webhookSecret: parsed.STRIPE_WEBHOOK_SECRET },
    ingestWorkers: parsed.SIFT_INGEST_WORKERS,
    ingestThreads: parsed.SIFT_INGEST_THREADS,
    ingestNice: parsed.SIFT_INGEST_NICE,
    searchThreads: parsed.SIFT_SEARCH_THREADS,
    searchConnections: parsed.SIFT_SEARCH_CONNECTIONS,
    searchPipelines: parsed.SIFT_SEARCH_PIPELINES,
    logLevel: parsed.LOG_LEVEL,
    adminKey: parsed.SIFT_ADMIN_KEY,
    storage: storageOf(parsed),
    parseLimits: { timeoutMs: parsed.SIFT_PARSE_TIMEOUT_S * 1000, memoryMb: parsed.SIFT_PARSE_MEMORY_MB },
    redisUrl: parsed.REDIS_URL,
    metricsToken: parsed.SIFT_METRICS_TOKEN,
    models: modelsOf(env),
  };
}

/** An empty variable means unset, as in most shells' `VAR= command`. */
const withoutEmpty = (env: object) => Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));

/** Where raw files go: the S3 store when a bucket is named, else the database's own place (see storage/). */
export type StorageConfig = ReturnType<typeof storageOf>;
function storageOf(parsed: z.infer<typeof Env>) {
  if (!parsed.S3_BUCKET) return { s3: null };
  return {
    s3: {
      bucket: parsed.S3_BUCKET,
      endpoint: parsed.S3_ENDPOINT,
      region: parsed.S3_REGION ?? parsed.AWS_REGION ?? 'us-east-1',
      // Without these the SDK reads AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or a role) itself.
      credentials:
        parsed.S3_ACCESS_KEY_ID && parsed.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: parsed.S3_ACCESS_KEY_ID, secretAccessKey: parsed.S3_SECRET_ACCESS_KEY }
          : undefined,
      forcePathStyle: parsed.S3_FORCE_PATH_STYLE ?? Boolean(parsed.S3_ENDPOINT),
    },
  };
}

/**
 * The data folder is its user's alone (0700), however it was made before: it holds the database,
 * the search files, uploaded documents and the generated secret. A folder of someone else's that
 * may not be changed is left as it is.
 */
function makePrivateFolder(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dataDir, 0o700);
  } catch {
    // Not this user's folder: its owner decides who may read it.
  }
}

/**
 * For a process's entry point (server, worker, CLI): every file and folder it creates is its
 * user's alone (0600, 0700), the SQLite database and its logs, search files and uploads included,
 * whoever made them (SQLite, the search files, the file store).
 */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(\.\d{1,3}){3})$/i;

/**
 * Whether this server may listen where it is told. Local sign-in lets anyone who reaches it sign
 * in as any user by typing an e-mail address: on an address other than loopback that needs an
 * identity provider, or SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK=true. Returns the warning to print
 * when the operator allowed it; throws ConfigError when they did not.
 */
export function localSignInExposure(config: Config): string | null {
  if (config.oidc || LOOPBACK.test(config.host)) return null;
  if (!config.allowLocalSignInOnNetwork) {
    throw new ConfigError(
      `Sift will not listen on ${config.host} with local sign-in: with no identity provider, anyone who reaches port ${config.port} ` +
        'could sign in as any user by typing their e-mail address.\n' +
        'Listen on this machine only (unset HOST, or HOST=127.0.0.1), configure an identity provider (OIDC_CLIENT_ID, OIDC_CLIENT_SECRET), ' +
        'or set SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK=true to accept that.',
    );
  }
  return (
    `WARNING: local sign-in is open on the network (${config.host}:${config.port}, SIFT_ALLOW_LOCAL_SIGN_IN_ON_NETWORK=true): ` +
    'anyone who reaches this port can sign in as any user, an organization owner included, by typing their e-mail address, ' +
    "and then see and change that user's organizations, members, API keys, billing and documents. Configure an identity provider to close it."
  );
}

/** A secret generated once per data folder, so sessions survive restarts without configuration. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

// ---- Models (docs/models.md): the embedding model and the reranker an operator provides. ----

const EMBEDDING_PROVIDERS = ['local', 'zeroentropy', 'openai', 'tei', 'ollama'] as const;
const RERANK_PROVIDERS = ['local', 'zeroentropy', 'cohere', 'tei'] as const;
/** Providers whose API has no default model: SIFT_*_MODEL must name one (`local`: the model's directory). */
const NEEDS_MODEL = new Set(['local', 'openai', 'ollama', 'cohere']);

const ModelEnv = z.object({
  SIFT_EMBEDDING_PROVIDER: z.enum(EMBEDDING_PROVIDERS).optional(),
  SIFT_EMBEDDING_URL: z.url().optional(),
  SIFT_EMBEDDING_MODEL: z.string().optional(),
  SIFT_EMBEDDING_API_KEY: z.string().optional(),
  SIFT_RERANK_PROVIDER: z.enum(RERANK_PROVIDERS).optional(),
  SIFT_RERANK_URL: z.url().optional(),
  SIFT_RERANK_MODEL: z.string().optional(),
  SIFT_RERANK_API_KEY: z.string().optional(),
});

/** One configured model: its provider, the provider's base URL (remote), model id or directory, key. */
export interface ModelProviderConfig<Provider extends string = string> {
  provider: Provider;
  url?: string;
  model?: string;
  apiKey?: string;
}
export interface ModelsConfig {
  /** Null: no embedding model (lexical search; /models/embed serves the built-in stand-in). */
  embedding: ModelProviderConfig<(typeof EMBEDDING_PROVIDERS)[number]> | null;
  /** Null: the built-in reranker. */
  rerank: ModelProviderConfig<(typeof RERANK_PROVIDERS)[number]> | null;
}

function modelsOf(env: NodeJS.ProcessEnv): ModelsConfig {
  const result = ModelEnv.safeParse(Object.fromEntries(Object.entries(env).filter(([key, value]) => key.startsWith('SIFT_') && value !== '')));
  if (!result.success) throw new ConfigError(`Sift cannot start with these settings:\n${z.prettifyError(result.error)}`);
  const e = result.data;
  return {
    embedding: providerOf('SIFT_EMBEDDING', e.SIFT_EMBEDDING_PROVIDER, e.SIFT_EMBEDDING_URL, e.SIFT_EMBEDDING_MODEL, e.SIFT_EMBEDDING_API_KEY),
    rerank: providerOf('SIFT_RERANK', e.SIFT_RERANK_PROVIDER, e.SIFT_RERANK_URL, e.SIFT_RERANK_MODEL, e.SIFT_RERANK_API_KEY),
  };
}

function providerOf<P extends string>(prefix: string, provider: P | undefined, url?: string, model?: string, apiKey?: string): ModelProviderConfig<P> | null {
  if (!provider) return null;
  if (provider !== 'local' && !url) throw new ConfigError(`${prefix}_PROVIDER=${provider} needs ${prefix}_URL, the provider's base URL.`);
  if (NEEDS_MODEL.has(provider) && !model) {
    throw new ConfigError(`${prefix}_PROVIDER=${provider} needs ${prefix}_MODEL (${provider === 'local' ? "the model's directory" : "the provider's model id"}).`);
  }
  return { provider, url, model, apiKey };
}
