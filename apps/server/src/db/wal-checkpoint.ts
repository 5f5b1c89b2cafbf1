import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Database, DB } from './schema.ts';
import { searchDirectory } from '../engine/search/sqlite-file.ts';

/** A write-ahead log past this size is checkpointed and truncated at the next tick. */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;
const CHECK_EVERY_MS = 1000;

/**
 * PostgreSQL: past this much log written since its last checkpoint, Sift asks for one. pg_wal then
 * holds about three times this (the log since the checkpoint before, and the segments PostgreSQL
 * recycles for what it expects next): 352 MB at most, writing as fast as it could for a minute on
 * 2 cores, against 1,024 MB (`max_wal_size`) leaving it to the server.
 */
export const POSTGRES_WAL_LIMIT_BYTES = 128 * 1024 * 1024;

/**
 * Keeps SQLite's write-ahead logs (the main file's and every collection's search file's) small while the server
 * runs. Automatic checkpoints are passive: under steady searches a reader always holds some old
 * frame, the log is never reset and grows with every write (10 GB seen under heavy ingestion).
 * Here a connection of its own checks each log's size every second and, past the limit, copies it
 * into its database and truncates it. It never waits: busy, it tries again at the next tick.
 * Run it in one thread that is not the HTTP thread (a checkpoint's copy is synchronous).
 * PostgreSQL's log is kept small another way (keepPostgresLogSmall).
 */
export function keepWriteAheadLogsSmall(database: Database, options: { limitBytes?: number; log?: WalLog } = {}): { stop(): void } {
  if (database.dialect === 'postgres') return keepPostgresLogSmall(database.db, options.limitBytes ?? POSTGRES_WAL_LIMIT_BYTES, options.log);
  if (!database.sqlitePath) return { stop() {} };
  const limitBytes = options.limitBytes ?? WAL_LIMIT_BYTES;
  const main = new SQLite(database.sqlitePath, { timeout: 0, fileMustExist: true });
  main.pragma(`journal_size_limit = ${limitBytes}`);
  const directory = searchDirectory(database.sqlitePath);
  const checkpoint = (connection: SQLite.Database) => {
    try {
      connection.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // SQLITE_BUSY: another checkpoint runs, or a writer holds the lock; next tick.
    }
  };
  const timer = setInterval(() => {
    if (sizeOf(`${database.sqlitePath}-wal`) > limitBytes) checkpoint(main);
    // Search files come and go with their collections: a connection only for the one that grew.
    for (const name of listing(directory)) {
      if (!name.endsWith('.db-wal') || sizeOf(join(directory, name)) <= limitBytes) continue;
      try {
        const connection = new SQLite(join(directory, name.slice(0, -'-wal'.length)), { timeout: 0, fileMustExist: true });
        checkpoint(connection);
        connection.close();
      } catch {
        // The collection was deleted meanwhile.
      }
    }
  }, CHECK_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      main.close();
    },
  };
}

export interface WalLog {
  info(message: string): void;
}

/**
 * PostgreSQL checkpoints by its own schedule: every `checkpoint_timeout` (5 min) or once
 * `max_wal_size` (1 GB by default) is in pg_wal, which heavy ingestion reaches. Here, once a
 * second, the log written since the last checkpoint (whoever asked for it) is read, and past the
 * limit Sift asks for one. That takes a role allowed to (a superuser, or `pg_checkpoint`, granted
 * by the operator); without one this says so once and leaves the log to the server's settings.
 * Several workers may ask at once: PostgreSQL runs one checkpoint for them all.
 */
function keepPostgresLogSmall(db: Kysely<DB>, limitBytes: number, log?: WalLog): { stop(): void } {
  let busy = false;
  let allowed = true;
  const tick = async () => {
    const { rows } = await sql<{ bytes: number }>`select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 as bytes from pg_control_checkpoint()`.execute(db);
    if ((rows[0]?.bytes ?? 0) <= limitBytes) return;
    try {
      await sql`checkpoint`.execute(db);
    } catch (error) {
      if ((error as { code?: string }).code !== '42501') throw error;
      allowed = false;
      log?.info(`ingest: this database role may not run CHECKPOINT (grant it pg_checkpoint); PostgreSQL's max_wal_size bounds pg_wal instead`);
    }
  };
  const timer = setInterval(() => {
    if (busy || !allowed) return;
    busy = true;
    // A failed read or checkpoint (the database restarting) is tried again at the next tick.
    tick()
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function listing(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
