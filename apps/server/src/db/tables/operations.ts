/**
 * What an installation of several machines shares through the database besides its data:
 * raw files when no object store is configured (PostgreSQL only), the heartbeats of ingestion
 * workers (readiness: is the queue served?), and the shared limits' counters (PostgreSQL only,
 * written by rate-limiter-flexible in its own table layout).
 */
export interface OperationsTables {
  blobs: {
    hash: string;
    bytes: Buffer;
    size: number;
    created_at: string;
  };
  ingest_workers: {
    id: string;
    host: string;
    pid: number;
    /** Milliseconds since the epoch of the last heartbeat. */
    seen_at: number;
  };
  rate_limits: {
    key: string;
    points: number;
    expire: number | null;
  };
}
