import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query it runs; preparing costs more than running most of
 * our queries (statements with full-text triggers compile those too). This keeps the last few
 * hundred prepared statements by SQL text. Safe because Kysely runs one query at a time on the
 * connection, and uses each statement to completion before the next.
 * It also makes every transaction `begin immediate` (see prepare).
 */
export function withStatementCache(sqlite: SQLite.Database, size = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      // Transactions take the write lock when they begin. A deferred transaction that reads and
      // then writes fails at once with SQLITE_BUSY (no waiting) when another connection (the
      // ingestion thread) committed in between; an immediate one waits for the lock instead.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the oldest entry is the first one evicted.
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
}
