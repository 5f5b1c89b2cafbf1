import { POSTGRES_ERRORS } from './postgres-errors.ts';

/**
 * Whether a database error means only that another connection held what this one needed for
 * longer than it waited: SQLite's busy or locked database, PostgreSQL's lock timeout, deadlock or
 * serialization failure. Nothing is wrong with the work: it can run again a moment later, so it
 * becomes a 503 with `retry-after` for a client and a requeue for ingestion, never a failure.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || POSTGRES_CONTENTION.has(code);
}

/** lock_not_available, serialization_failure, deadlock_detected. */
const POSTGRES_CONTENTION = new Set([POSTGRES_ERRORS.lockNotAvailable, '40001', '40P01']);
