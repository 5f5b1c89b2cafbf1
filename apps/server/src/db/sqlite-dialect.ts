import type SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, SqliteDialect, SqliteDriver } from 'kysely';
import { whenUnlocked } from './sqlite-busy.ts';
import { withStatementCache } from './statement-cache.ts';

/**
 * Kysely's SQLite dialect, for a database with several writers (the HTTP thread and the ingestion
 * threads). A transaction begins `immediate`, taking the write lock up front: a deferred one that
 * reads and then writes fails at once with SQLITE_BUSY when another connection committed in
 * between. While another thread holds the lock, every statement waits between event-loop turns
 * (sqlite-busy.ts), not inside SQLite's busy handler, which would stop the thread and every
 * request it serves; after the connection's busy timeout it gives up with SQLITE_BUSY, which the
 * HTTP layer answers with 503 and `retry-after` (db/contention.ts).
 */
export function sqliteDialect(sqlite: SQLite.Database): SqliteDialect {
  const database = withStatementCache(sqlite);
  // Checkpoints (copying the WAL into the database file) fall to the ingestion connection, which
  // writes most; this connection takes one only when the log grows far beyond that.
  sqlite.pragma('wal_autocheckpoint = 10000');
  const waitMs = Number(sqlite.pragma('busy_timeout', { simple: true }));
  sqlite.pragma('busy_timeout = 0');
  let patient: DatabaseConnection | null = null;
  class PatientSqliteDriver extends SqliteDriver {
    override async acquireConnection(): Promise<DatabaseConnection> {
      const connection = await super.acquireConnection();
      patient ??= {
        executeQuery: (query) => whenUnlocked(() => connection.executeQuery(query), waitMs),
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      return patient;
    }
    override async beginTransaction(connection: DatabaseConnection): Promise<void> {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    }
  }
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return new PatientSqliteDriver({ database });
    }
  })({ database });
}
