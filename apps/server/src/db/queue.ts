import { sql } from 'kysely';
import type { Database } from './schema.ts';
import type { DocumentSourceType, IndexStatus } from './tables/retrieval.ts';

/**
 * The documents table as a durable work queue. A worker claims the oldest waiting document by
 * one atomic UPDATE that moves it to `parsing` (from `not_parsed`) or `indexing` (from
 * `not_indexed`) and stamps a lease; PostgreSQL adds FOR UPDATE SKIP LOCKED so concurrent
 * workers never wait on, or take, the same row. A lease that runs out puts the document back.
 */
export interface ClaimedDocument {
  id: string;
  seq: number;
  organization_id: string;
  collection_id: string;
  path: string;
  index_status: Extract<IndexStatus, 'parsing' | 'indexing'>;
  source_type: DocumentSourceType;
  file_hash: string;
  size: number;
  attempts: number;
}

/** After this many claims that never finished (the process died each time), a document fails. */
export const MAX_ATTEMPTS = 3;

/**
 * Claims up to `limit` waiting documents, oldest first, in one statement: each moves to
 * `parsing` or `indexing` under this owner's lease. Several at once let the worker index them in
 * one transaction (one full-text flush instead of one per document).
 */
export async function claimDocuments(database: Database, owner: string, leaseMs: number, limit: number): Promise<ClaimedDocument[]> {
  const lock = database.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<ClaimedDocument>`
    update documents
    set index_status = case index_status when 'not_parsed' then 'parsing' else 'indexing' end,
        lease_owner = ${owner}, lease_expires_at = ${Date.now() + leaseMs}, attempts = attempts + 1, updated_at = ${new Date().toISOString()}
    where seq in (
      select seq from documents where index_status in ('not_parsed', 'not_indexed') order by created_at, seq limit ${limit} ${lock}
    ) and index_status in ('not_parsed', 'not_indexed')
    returning id, seq, organization_id, collection_id, path, index_status, source_type, file_hash, size, attempts`.execute(database.db);
  return rows.map((row) => ({ ...row, seq: Number(row.seq), size: Number(row.size) })).sort((a, b) => a.seq - b.seq);
}

/** Extends the leases of documents this owner still holds. */
export async function renewLeases(database: Database, documentIds: string[], owner: string, leaseMs: number): Promise<void> {
  if (documentIds.length === 0) return;
  await database.db
    .updateTable('documents')
    .set({ lease_expires_at: Date.now() + leaseMs })
    .where('id', 'in', documentIds)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Puts documents whose lease expired (or every leased one, `all`: the only worker process just
 * started) back in the queue; one claimed too often without finishing fails instead.
 */
export async function requeueLeases(database: Database, options: { all: boolean }): Promise<number> {
  const expired = options.all ? sql`lease_owner is not null` : sql`lease_owner is not null and lease_expires_at < ${Date.now()}`;
  const reason = `Gave up after ${MAX_ATTEMPTS} attempts: processing this document stopped the worker each time.`;
  const result = await sql`
    update documents
    set index_status = case
          when attempts >= ${MAX_ATTEMPTS} then (case index_status when 'parsing' then 'parsing_failed' else 'indexing_failed' end)
          else (case index_status when 'parsing' then 'not_parsed' else 'not_indexed' end) end,
        error = case when attempts >= ${MAX_ATTEMPTS} then ${reason} else error end,
        lease_owner = null, lease_expires_at = null
    where ${expired} and index_status in ('parsing', 'indexing')`.execute(database.db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Puts the documents this owner holds back in the queue, their attempt not charged: the worker
 * stops (SIGTERM), the documents did nothing wrong. Its later writes find the lease gone.
 */
export async function handBackLeases(database: Database, owner: string): Promise<number> {
  const result = await sql`
    update documents
    set index_status = case index_status when 'parsing' then 'not_parsed' else 'not_indexed' end,
        attempts = case when attempts > 0 then attempts - 1 else 0 end,
        lease_owner = null, lease_expires_at = null
    where lease_owner = ${owner} and index_status in ('parsing', 'indexing')`.execute(database.db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * The ingestion connection writes most of the data: a larger page cache keeps the full-text
 * segments and B-tree pages it keeps touching in memory, and it checkpoints the WAL every ~16 MB
 * (the HTTP connection leaves checkpoints to it, see sqlite-dialect.ts).
 * SQLite only; PostgreSQL is tuned on its server.
 */
export async function tuneForIngestion(database: Database): Promise<void> {
  if (database.dialect !== 'sqlite') return;
  await sql`pragma cache_size = -65536`.execute(database.db);
  await sql`pragma wal_autocheckpoint = 4000`.execute(database.db);
}
