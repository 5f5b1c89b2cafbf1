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

export async function claimDocument(database: Database, owner: string, leaseMs: number): Promise<ClaimedDocument | null> {
  const lock = database.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<ClaimedDocument>`
    update documents
    set index_status = case index_status when 'not_parsed' then 'parsing' else 'indexing' end,
        lease_owner = ${owner}, lease_expires_at = ${Date.now() + leaseMs}, attempts = attempts + 1, updated_at = ${new Date().toISOString()}
    where seq = (
      select seq from documents where index_status in ('not_parsed', 'not_indexed') order by created_at, seq limit 1 ${lock}
    ) and index_status in ('not_parsed', 'not_indexed')
    returning id, seq, organization_id, collection_id, path, index_status, source_type, file_hash, size, attempts`.execute(database.db);
  const row = rows[0];
  return row ? { ...row, seq: Number(row.seq), size: Number(row.size) } : null;
}

/** Extends a lease while its holder still works; false when the lease was lost. */
export async function renewLease(database: Database, documentId: string, owner: string, leaseMs: number): Promise<boolean> {
  const result = await database.db
    .updateTable('documents')
    .set({ lease_expires_at: Date.now() + leaseMs })
    .where('id', '=', documentId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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
