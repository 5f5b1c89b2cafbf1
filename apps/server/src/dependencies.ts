/**
 * What Sift needs besides itself: the database and, when configured, the object store (S3). When
 * one cannot be reached nothing is wrong with the work: a request answers 503 with `retry-after`,
 * ingestion waits and tries again, and nothing fails for good. Here, importable from every layer
 * (db, storage, domain, ingestion, HTTP), so each recognises an outage the same way.
 */
export type Dependency = 'database' | 'object store';

/** Seconds a client is asked to wait while a dependency is unreachable. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** A dependency could not be reached: the operation can run again, unchanged, once it is back. */
export class DependencyUnavailable extends Error {
  constructor(
    readonly dependency: Dependency,
    /** What the driver said (`connect ECONNREFUSED 127.0.0.1:5432`): for the operator's log. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The ${dependency} is unreachable: ${reason}`, options);
    this.name = 'DependencyUnavailable';
  }
}

/** Socket-level failures: nothing answered, or the connection was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'ENETDOWN', 'EHOSTDOWN']);

/**
 * PostgreSQL's SQLSTATEs of a server not there to serve: class 08 (connection exception),
 * admin_shutdown, crash_shutdown, cannot_connect_now (starting or in recovery), too_many_connections.
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P01|57P02|57P03|53300)$/;

/** pg's own errors for a lost or unusable connection, which carry no code. */
const PG_CONNECTION_LOST = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Query read timeout/;

/** SQLite: the file cannot be opened, read or written (a disk gone or full), not a fault of the request. */
const SQLITE_UNAVAILABLE = /^SQLITE_(CANTOPEN|IOERR|FULL)/;

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** The error and what it wraps (AggregateError's attempts, `cause`), a few levels down. */
function* causes(error: unknown, depth = 0): Generator<unknown> {
  if (!error || typeof error !== 'object' || depth > 4) return;
  yield error;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  yield* causes(cause, depth + 1);
  if (Array.isArray(errors)) for (const inner of errors) yield* causes(inner, depth + 1);
}

/**
 * Whether a database error means the database could not be reached (not that the statement was
 * wrong). The drivers throw these themselves (or an AggregateError of connection attempts); an
 * error that merely wraps one as its `cause` (a failed `fetch` to another service) is not the
 * database's.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const attempts = (error as { errors?: unknown } | null)?.errors;
  for (const inner of [error, ...(Array.isArray(attempts) ? attempts : [])]) {
    const code = codeOf(inner);
    if (code && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code))) return true;
    if (inner instanceof Error && !code && PG_CONNECTION_LOST.test(inner.message)) return true;
  }
  return false;
}

/**
 * Whether an object store (S3 SDK) error means the store could not be reached or could not serve:
 * no connection, a timeout, or a 5xx answer (S3's 503 SlowDown included). A 4xx (a missing object,
 * a refused credential) is an answer, not an outage.
 */
export function isObjectStoreUnreachable(error: unknown): boolean {
  for (const inner of causes(error)) {
    const code = codeOf(inner);
    if (code && NETWORK_CODES.has(code)) return true;
    const { name, $metadata } = inner as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (name === 'TimeoutError' || name === 'RequestTimeout' || name === 'AbortError') return true;
    if (($metadata?.httpStatusCode ?? 0) >= 500) return true;
  }
  return false;
}

/**
 * The outage an error means, or null: a DependencyUnavailable as it is, a database driver's
 * connection failure as one of the database. For whoever must tell "try again later" from "this
 * failed" (the error handler, ingestion's retries).
 */
export function dependencyUnavailable(error: unknown): DependencyUnavailable | null {
  if (error instanceof DependencyUnavailable) return error;
  if (isDatabaseUnreachable(error)) return new DependencyUnavailable('database', (error as Error).message ?? String(error), { cause: error });
  return null;
}
