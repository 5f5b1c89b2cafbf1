import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { keepDocumentUsageFolded } from './document-usage-pending.ts';
import { groupedTransactions } from './group-commit.ts';
import { migrations } from './migrations/index.ts';
import { PipelinedPool } from './pipelined-pool.ts';
import { hasPostgresCode, POSTGRES_ERRORS } from './postgres-errors.ts';
import { PreparedStatementsClient } from './prepared-statements-client.ts';
import { rebuildPostgresIndex } from '../engine/search/postgres.ts';
import { ensureSearchFiles } from '../engine/search/sqlite-file.ts';
import type { Database, DB } from './schema.ts';
import { sqliteDialect } from './sqlite-dialect.ts';
import { WAL_LIMIT_BYTES } from './wal-checkpoint.ts';

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** SQLite: threads answering searches (default: one per core). */
  searchThreads?: number;
  /** PostgreSQL: connections of the pool that runs filtered searches (default: defaultSearchConnections). */
  searchConnections?: number;
  /** PostgreSQL: pipelined connections that run every other search (default: defaultSearchPipelines). */
  searchPipelines?: number;
  /**
   * SQLite: the process's main thread has already brought the search files in line with the main
   * file (ensureSearchFiles), as a server's ingestion threads find it. They must not again: the
   * other thread may be writing a search file meanwhile, and a rebuild would replace it under it.
   */
  searchFilesInLine?: boolean;
}

/**
 * How long a statement waits for a lock another connection holds (SQLite's busy timeout,
 * PostgreSQL's lock_timeout). Past it the write fails as contention (contention.ts): a 503 with
 * `retry-after` for a client, a requeue for ingestion; never an unbounded wait.
 */
export const LOCK_WAIT_MS = 5000;

/**
 * PostgreSQL: how long a new connection may take (or a pooled one be waited for) before the query
 * fails as the database unreachable (a 503 with `retry-after`, dependencies.ts). Without it, a
 * database whose address drops packets held every request for the system's TCP timeout, minutes.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The URL with `lock_timeout` (and `extra`) among its connection options, after any it has (a
 * URL's options replace those given beside it, so they are joined here).
 */
function withOptions(url: string, extra?: string): string {
  const parsed = new URL(url);
  const options = [parsed.searchParams.get('options'), `-c lock_timeout=${LOCK_WAIT_MS}`, extra].filter(Boolean).join(' ');
  parsed.searchParams.set('options', options);
  return parsed.toString();
}

/**
 * Four per core, at most 20: with the shared pool's 10, a
 * server stays within 30 of PostgreSQL's 100 connections by default however many cores it has.
 */
const defaultSearchConnections = (): number => Math.min(20, 4 * availableParallelism());

/**
 * One per core but the one the server's own thread keeps busy, at least one: more pipelined
 * connections than the cores left to the database only make their backends take turns, and even
 * one serves many clients' searches better than a pool of connections alone (`bench/fair-probe.ts --postgres`
 * measures it).
 */
const defaultSearchPipelines = (): number => Math.max(1, availableParallelism() - 1);

/** Opens SQLite under the data folder (default) or PostgreSQL (DATABASE_URL), and migrates it. */
export async function openDatabase({ dataDir, databaseUrl, searchThreads, searchConnections, searchPipelines, searchFilesInLine }: DatabaseOptions): Promise<Database> {
  const database = databaseUrl?.startsWith('postgres')
    ? openPostgres(databaseUrl, searchConnections ?? defaultSearchConnections(), searchPipelines ?? defaultSearchPipelines())
    : { ...openSqlite(dataDir, databaseUrl), searchThreads };
  await migrate(database);
  if (database.sqlitePath && !searchFilesInLine) ensureSearchFiles(database.sqlitePath);
  return database;
}

/** Runs `hook` when the handle is destroyed, before its connections close (the last added runs first). */
export function beforeDestroy(database: Database, hook: () => unknown): void {
  const destroy = database.destroy.bind(database);
  database.destroy = async () => {
    await hook();
    await destroy();
  };
}

function openSqlite(dataDir: string, databaseUrl?: string): Database {
  const sqlitePath = databaseUrl?.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : join(dataDir, 'sift.db');
  const sqlite = new SQLite(sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
  sqlite.pragma('synchronous = NORMAL');
  // A log reset after a checkpoint is cut back to this size (see wal-checkpoint.ts).
  sqlite.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
  const db = new Kysely<DB>({ dialect: sqliteDialect(sqlite) });
  return { db, dialect: 'sqlite', sqlitePath, inGroupedTransaction: groupedTransactions(db, 'sqlite'), destroy: () => db.destroy() };
}

function openPostgres(url: string, searchConnections: number, searchPipelines: number): Database {
  // int8 (counts, sums, Unix seconds) as JS numbers: every value we store fits in 2^53.
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  // Uploads and indexing repeat a few statement shapes thousands of times: each is parsed once per
  // connection, but for bulk writes (more than 64 parameters, see PreparedStatementsClient).
  const pool = postgresPool(url, 10, { client: PreparedStatementsClient, preparedMostParameters: 64 });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // Searches have connections of their own, so they never hold every connection: through the
  // shared pool, many clients searching starved ingestion and the dashboard of connections.
  // Their statements are prepared once per connection and planned once, generically: every search
  // shape's plan is index lookups whatever the collection or terms (postgres.ts), and a custom plan
  // per query cost as much as running it.
  const searchSession = { client: PreparedStatementsClient, options: '-c plan_cache_mode=force_generic_plan' };
  // A filtered search runs two statements on one connection (postgres.ts), and may take longer than
  // most: a pool of its own, which also takes the other searches while every pipelined connection
  // is stalled.
  const filteredSearchesPool = postgresPool(url, searchConnections, searchSession);
  const filteredSearchesDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool: filteredSearchesPool }) });
  // A search without a filter is one statement, sent on a few pipelined connections (pipelined-pool.ts).
  const pipelined = new PipelinedPool(
    searchPipelines,
    (socket) =>
      new PreparedStatementsClient({
        connectionString: withOptions(url, searchSession.options),
        pipeline: true,
        stream: () => socket,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      }),
    filteredSearchesPool,
  );
  const usage = keepDocumentUsageFolded(db);
  return {
    db,
    filteredSearchesDb,
    dialect: 'postgres',
    pool,
    searchPools: { pipelined, filtered: filteredSearchesPool },
    inGroupedTransaction: groupedTransactions(db, 'postgres'),
    destroy: async () => {
      await usage.stop();
      await pipelined.end();
      await filteredSearchesDb.destroy();
      await db.destroy();
    },
  };
}

function postgresPool(
  url: string,
  max: number,
  session: { client?: typeof PreparedStatementsClient; options?: string; preparedMostParameters?: number } = {},
): pg.Pool {
  // pg's pool hands its whole configuration to each client it makes (preparedMostParameters included).
  const pool = new pg.Pool({
    connectionString: withOptions(url, session.options),
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(session.client ? { Client: session.client, preparedMostParameters: session.preparedMostParameters } : {}),
  });
  // A connection the database dropped (restart, failover, network) is replaced, never fatal to
  // the process: the query on it fails and says so, the next one gets a new connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

const MIGRATION_ATTEMPTS = 3;

/**
 * Runs the migrations not yet applied. Servers starting together on a new database each run a
 * migration once: Kysely's migrator holds an advisory lock on PostgreSQL (pg_advisory_lock) while
 * it reads what ran and runs the rest.
 */
async function migrate(database: Database): Promise<void> {
  if (database.dialect !== 'postgres') {
    const { error } = await (await migratorOf(database)).migrateToLatest();
    if (error) throw error;
    return;
  }
  // Waiting for another server's migrations is no contention: that wait has no lock timeout.
  await database.db.connection().execute(async (connection) => {
    await sql`set lock_timeout = 0`.execute(connection);
    try {
      for (let attempt = 1; ; attempt++) {
        const { error, results } = await (await migratorOf({ ...database, db: connection })).migrateToLatest();
        // Indexed documents of an index older than 011 (one from migration 006) have no search
        // rows: built from their stored text, pages and snippets once the tables are today's.
        if (results?.some((result) => result.migrationName === '011_compact_postings' && result.status === 'Success')) await rebuildPostgresIndex(connection, undefined, { missingOnly: true });
        if (!error) break;
        // Kysely lists every table of the database before it migrates: a table another server
        // drops in that instant (a deleted collection's postings or vectors) fails the listing.
        if (!hasPostgresCode(error, POSTGRES_ERRORS.undefinedTable) || attempt === MIGRATION_ATTEMPTS) throw error;
      }
    } finally {
      await sql`reset lock_timeout`.execute(connection);
    }
  });
}

/**
 * On PostgreSQL the migrator's own tables are looked for in the current schema only: Kysely
 * otherwise finds them in any schema of the database and skips creating them in this one.
 */
async function migratorOf({ db, dialect }: Database): Promise<Migrator> {
  const migrationTableSchema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  return new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true, migrationTableSchema });
}

/** The names of migrations this code knows that the database has not run (readiness). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const known = await (await migratorOf(database)).getMigrations();
  return known.filter((migration) => !migration.executedAt).map((migration) => migration.name);
}
