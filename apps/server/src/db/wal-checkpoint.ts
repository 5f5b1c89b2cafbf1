import { statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import type { Database } from './schema.ts';
import { searchFilePath } from './search/sqlite-file.ts';

/** A write-ahead log past this size is checkpointed and truncated at the next tick. */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;
const CHECK_EVERY_MS = 1000;

/**
 * Keeps SQLite's write-ahead logs (the main file's and the search file's) small while the server
 * runs. Automatic checkpoints are passive: under steady searches a reader always holds some old
 * frame, the log is never reset and grows with every write (10 GB seen under heavy ingestion).
 * Here a connection of its own checks each log's size every second and, past the limit, copies it
 * into its database and truncates it. It never waits: busy, it tries again at the next tick.
 * Run it in one thread that is not the HTTP thread (a checkpoint's copy is synchronous).
 */
export function keepWriteAheadLogsSmall(database: Database, limitBytes = WAL_LIMIT_BYTES): { stop(): void } {
  if (database.dialect !== 'sqlite' || !database.sqlitePath) return { stop() {} };
  const logs = [database.sqlitePath, searchFilePath(database.sqlitePath)].map((file) => {
    const connection = new SQLite(file, { timeout: 0, fileMustExist: true });
    connection.pragma(`journal_size_limit = ${limitBytes}`);
    return { wal: `${file}-wal`, connection };
  });
  const timer = setInterval(() => {
    for (const { wal, connection } of logs) {
      if (sizeOf(wal) <= limitBytes) continue;
      try {
        connection.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // SQLITE_BUSY: another checkpoint runs, or a writer holds the lock; next tick.
      }
    }
  }, CHECK_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      for (const { connection } of logs) connection.close();
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
