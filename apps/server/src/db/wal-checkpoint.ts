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
 * recycles for what it expects next), far less than `max_wal_size` lets it reach when
 * checkpoints are left to the server under heavy ingestion.
 */
export const POSTGRES_WAL_LIMIT_BYTES = 128 * 1024 * 1024;

/**
 * A write-ahead log of at least this size that grew by less than this in the last WAL_QUIET_MS
 * (ingestion gone idle; a worker's heartbeat writes a page every 5 s) is checkpointed and
 * truncated, whatever the limit.
 */
export const WAL_QUIET_BYTES = 1024 * 1024;
export const WAL_QUIET_MS = 2000;

/**
 * Keeps SQLite's write-ahead logs (the main file's and every collection's search file's) small while the server
 * runs. Automatic checkpoints are passive: under steady searches a reader always holds some old
 * frame, the log is never reset and grows with every write, without bound under heavy ingestion.
 * Here a connection of its own checks each log's size every second and, past the limit, copies it
 * into its database and truncates it. A log that stopped growing (WAL_QUIET_BYTES) is truncated
 * too: a reset log keeps its size, which would otherwise stay on the disk once ingestion is idle.
 * It never waits: busy (a writer, or a reader holding a snapshot), it tries again at the next tick.
 * Run it in one thread that is not the HTTP thread (a checkpoint's copy is synchronous).
 * PostgreSQL's log is kept small another way (keepPostgresLogSmall).
 */
export function keepWriteAheadLogsSmall(database: Database, options: { limitBytes?: number; quietBytes?: number; quietMs?: number; log?: WalLog } = {}): { stop(): void } {
  if (database.dialect === 'postgres') return keepPostgresLogSmall(database.db, options.limitBytes ?? POSTGRES_WAL_LIMIT_BYTES, options.log);
  if (!database.sqlitePath) return { stop() {} };
  const limitBytes = options.limitBytes ?? WAL_LIMIT_BYTES;
  const mainPath = database.sqlitePath;
  const main = new SQLite(mainPath, { timeout: 0, fileMustExist: true });
  main.pragma(`journal_size_limit = ${limitBytes}`);
  const directory = searchDirectory(mainPath);
  const due = dueLogs(limitBytes, options.quietBytes ?? WAL_QUIET_BYTES, options.quietMs ?? WAL_QUIET_MS);
  const timer = setInterval(() => {
    const logs = [`${mainPath}-wal`, ...listing(directory).filter((name) => name.endsWith('.db-wal')).map((name) => join(directory, name))];
    for (const log of due(logs)) {
      if (log === `${mainPath}-wal`) {
        truncate(main);
        continue;
      }
      // Search files come and go with their collections: a connection only for the one due.
      try {
        const connection = new SQLite(log.slice(0, -'-wal'.length), { timeout: 0, fileMustExist: true });
        truncate(connection);
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

function truncate(connection: SQLite.Database): void {
  try {
    // Returns busy = 1 without truncating while a reader holds a snapshot: the log stays due.
    connection.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // SQLITE_BUSY: another checkpoint runs, or a writer holds the lock; next tick.
  }
}

/**
 * Of the logs it is given at each tick, those to truncate now: past the limit, or of at least
 * `quietBytes` and grown by less than that in the last `quietMs`.
 */
function dueLogs(limitBytes: number, quietBytes: number, quietMs: number): (logs: string[]) => string[] {
  /** Each log's size when it last grew (or shrank) by `quietBytes`, and when. */
  let seen = new Map<string, { size: number; since: number }>();
  return (logs) => {
    const now = Date.now();
    const due: string[] = [];
    const current = new Map<string, { size: number; since: number }>();
    for (const log of logs) {
      const size = statSync(log, { throwIfNoEntry: false })?.size ?? 0;
      const before = seen.get(log);
      const state = before && Math.abs(size - before.size) < quietBytes ? before : { size, since: now };
      current.set(log, state);
      if (size > limitBytes || (size >= quietBytes && now - state.since >= quietMs)) due.push(log);
    }
    seen = current;
    return due;
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

function listing(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch {
    return [];
  }
}
