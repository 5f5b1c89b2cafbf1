import { setTimeout as sleep } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect, SqliteDriver } from 'kysely';
import { withStatementCache } from './statement-cache.ts';

/**
 * Kysely's SQLite dialect, for a database with two writers (the HTTP thread and the ingestion
 * thread). A transaction begins `immediate`, taking the write lock up front: a deferred one that
 * reads and then writes fails at once with SQLITE_BUSY when the other connection committed in
 * between. While the other thread holds the lock, the wait happens between event-loop turns, not
 * inside SQLite's busy handler, which would block this thread (and every request it serves).
 */
export function sqliteDialect(sqlite: SQLite.Database): SqliteDialect {
  const database = withStatementCache(sqlite);
  // Checkpoints (copying the WAL into the database file) fall to the ingestion connection, which
  // writes most; this connection takes one only when the log grows far beyond that.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const busyTimeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
  class PatientSqliteDriver extends SqliteDriver {
    override async beginTransaction(connection: DatabaseConnection): Promise<void> {
      const started = Date.now();
      sqlite.pragma('busy_timeout = 0');
      try {
        for (;;) {
          try {
            await connection.executeQuery(CompiledQuery.raw('begin immediate'));
            return;
          } catch (error) {
            if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() - started > busyTimeout) throw error;
            await sleep(1);
          }
        }
      } finally {
        sqlite.pragma(`busy_timeout = ${busyTimeout}`);
      }
    }
  }
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return new PatientSqliteDriver({ database });
    }
  })({ database });
}
