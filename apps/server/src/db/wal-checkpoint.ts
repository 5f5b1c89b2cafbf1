import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { Database } from './schema.ts';
import { searchDirectory } from './search/sqlite-file.ts';

/** A write-ahead log past this size is checkpointed and truncated at the next tick. */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;
const CHECK_EVERY_MS = 1000;

/**
 * Keeps SQLite's write-ahead logs (the main file's and every collection's search file's) small while the server
 * runs. Automatic checkpoints are passive: under steady searches a reader always holds some old
 * frame, the log is never reset and grows with every write (10 GB seen under heavy ingestion).
 * Here a connection of its own checks each log's size every second and, past the limit, copies it
 * into its database and truncates it. It never waits: busy, it tries again at the next tick.
 * Run it in one thread that is not the HTTP thread (a checkpoint's copy is synchronous).
 */
export function keepWriteAheadLogsSmall(database: Database, limitBytes = WAL_LIMIT_BYTES): { stop(): void } {
  if (database.dialect !== 'sqlite' || !database.sqlitePath) return { stop() {} };
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
