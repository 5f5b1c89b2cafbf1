import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect, SqliteDriver } from 'kysely';
import { whenUnlocked } from './sqlite-busy.ts';
import { withStatementCache } from './statement-cache.ts';

/**
 * Kysely's SQLite dialect, for a database with several writers (the HTTP thread and the ingestion
 * threads). A transaction begins `immediate`, taking the write lock up front: a deferred one that
 * reads and then writes fails at once with SQLITE_BUSY when another connection committed in
 * between. While another thread holds the lock, the wait happens between event-loop turns
 * (sqlite-busy.ts), not inside SQLite's busy handler.
 */
export function sqliteDialect(sqlite: SQLite.Database): SqliteDialect {
  const database = withStatementCache(sqlite);
  // Checkpoints (copying the WAL into the database file) fall to the ingestion connection, which
  // writes most; this connection takes one only when the log grows far beyond that.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const busyTimeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
  class PatientSqliteDriver extends SqliteDriver {
    override async beginTransaction(connection: DatabaseConnection): Promise<void> {
      sqlite.pragma('busy_timeout = 0');
      try {
        await whenUnlocked(() => connection.executeQuery(CompiledQuery.raw('begin immediate')), busyTimeout);
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
