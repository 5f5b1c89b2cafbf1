import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import { ensureSearchFile } from './search/sqlite-file.ts';
import type { Database, DB } from './schema.ts';
import { sqliteDialect } from './sqlite-dialect.ts';
import { WAL_LIMIT_BYTES } from './wal-checkpoint.ts';

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  /** SQLite: threads answering searches (default: one per core). */
  searchThreads?: number;
}

/** Opens SQLite under the data folder (default) or PostgreSQL (DATABASE_URL), and migrates it. */
export async function openDatabase({ dataDir, databaseUrl, searchThreads }: DatabaseOptions): Promise<Database> {
  const database = databaseUrl?.startsWith('postgres') ? openPostgres(databaseUrl) : { ...openSqlite(dataDir, databaseUrl), searchThreads };
  await migrate(database);
  if (database.sqlitePath) ensureSearchFile(database.sqlitePath);
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
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // A log reset after a checkpoint is cut back to this size (see wal-checkpoint.ts).
  sqlite.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
  const db = new Kysely<DB>({ dialect: sqliteDialect(sqlite) });
  return { db, dialect: 'sqlite', sqlitePath, destroy: () => db.destroy() };
}

function openPostgres(url: string): Database {
  // int8 (counts, sums, Unix seconds) as JS numbers: every value we store fits in 2^53.
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }) });
  return { db, dialect: 'postgres', destroy: () => db.destroy() };
}

async function migrate({ db, dialect }: Database): Promise<void> {
  // Kysely looks for its migration tables in every schema it can list; name ours, or another
  // installation's schema in the same PostgreSQL database would pass for this one's.
  const migrationTableSchema = dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true, migrationTableSchema });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
