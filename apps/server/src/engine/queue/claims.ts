import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DocumentSourceType, IndexStatus } from '../../db/tables/retrieval.ts';

/**
 * The documents table as a durable work queue: the SQL of claiming and recovering leases, the one
 * part of a document's life that differs by dialect. engine/queue/document-states.ts owns the states
 * and decides when each of these runs (and with which clock); nothing else calls them.
 *
 * A worker claims waiting documents by one atomic UPDATE that moves them to `parsing` (from
 * `not_parsed`) or `indexing` (from `not_indexed`) and stamps a lease; PostgreSQL adds FOR UPDATE
 * SKIP LOCKED so concurrent workers never wait on, or take, the same row. A lease that runs out
 * puts the document back.
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

export interface ClaimRules {
  owner: string;
  now: number;
  nowIso: string;
  /** Lease of a small document; a larger one gets `bytesPerLeaseMs` more per byte. */
  leaseMs: number;
  bytesPerLeaseMs: number;
  /** Most documents in one batch, and most raw bytes. */
  limit: number;
  batchBytes: number;
  /** Documents from this size on are claimed alone, and at most `maxLarge` of them are held at once. */
  largeBytes: number;
  maxLarge: number;
}

const waiting = sql`index_status in ('not_parsed', 'not_indexed')`;
const returning = sql`returning id, seq, organization_id, collection_id, path, index_status, source_type, file_hash, size, attempts`;

/**
 * Claims either one document to be worked on alone (one whose earlier claim never finished, so
 * the worker died while holding it, or a large one) or a batch of small fresh documents, oldest
 * first. Every claim counts an attempt for each document it takes.
 */
export async function claimDocuments(database: Database, rules: ClaimRules): Promise<ClaimedDocument[]> {
  const lock = database.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const lease = sql`${rules.now + rules.leaseMs} + size / ${rules.bytesPerLeaseMs}`;
  const set = sql`set index_status = case index_status when 'not_parsed' then 'parsing' else 'indexing' end,
      lease_owner = ${rules.owner}, lease_expires_at = ${lease}, attempts = attempts + 1, updated_at = ${rules.nowIso}`;
  const largeHeld = sql`(select count(*) from documents where lease_owner is not null and size >= ${rules.largeBytes})`;
  // `seq = (...)`, a subquery run once: as `seq in (...)` PostgreSQL could run it again for each row
  // it joined, each run taking another document (seven 60 MB documents leased in one claim once
  // the table held 2,000 others, 3.1 GB of RSS).
  const alone = await sql<ClaimedDocument>`
    update documents ${set}
    where seq = (
      select seq from documents
      where ${waiting} and (attempts > 0 or size >= ${rules.largeBytes}) and (size < ${rules.largeBytes} or ${largeHeld} < ${rules.maxLarge})
      order by created_at, seq limit 1 ${lock}
    ) and ${waiting}
    ${returning}`.execute(database.db);
  if (alone.rows.length > 0) return normalised(alone.rows);
  // Fresh small documents, oldest first, while their running total stays within the batch's bytes
  // (PostgreSQL locks rows in the inner query: FOR UPDATE cannot sit beside a window function).
  const pick = sql`
    select seq from (
      select seq, sum(size) over (order by created_at, seq) as running from (
        select seq, size, created_at from documents
        where ${waiting} and attempts = 0 and size < ${rules.largeBytes}
        order by created_at, seq limit ${rules.limit} ${lock}
      ) oldest
    ) candidates where running <= ${rules.batchBytes}`;
  // PostgreSQL: `= any(array(...))` makes the pick an init plan, run once whatever the plan (as above).
  const picked = database.dialect === 'postgres' ? sql`= any(array(${pick}))` : sql`in (${pick})`;
  const batch = await sql<ClaimedDocument>`update documents ${set} where seq ${picked} and ${waiting} ${returning}`.execute(database.db);
  return normalised(batch.rows);
}

function normalised(rows: ClaimedDocument[]): ClaimedDocument[] {
  return rows.map((row) => ({ ...row, seq: Number(row.seq), size: Number(row.size), attempts: Number(row.attempts) })).sort((a, b) => a.seq - b.seq);
}

/** Extends the leases of documents this owner still holds. */
export async function renewLeases(database: Database, owner: string, documentIds: string[], rules: Pick<ClaimRules, 'now' | 'leaseMs' | 'bytesPerLeaseMs'>): Promise<void> {
  if (documentIds.length === 0) return;
  await sql`update documents set lease_expires_at = ${rules.now + rules.leaseMs} + size / ${rules.bytesPerLeaseMs}
    where lease_owner = ${owner} and id in (${sql.join(documentIds)})`.execute(database.db);
}

/**
 * Puts documents whose lease expired (or every leased one, `all`) back in the queue; one claimed
 * `maxAttempts` times without finishing fails instead, with `reason`.
 */
export async function requeueLeases(database: Database, options: { all: boolean; now: number; nowIso: string; maxAttempts: number; reason: string }): Promise<number> {
  const expired = options.all ? sql`lease_owner is not null` : sql`lease_owner is not null and lease_expires_at < ${options.now}`;
  // PostgreSQL: a row locked by a transaction in progress belongs to a worker alive and writing
  // it (its renewal waits for that lock too); it is skipped, not waited for.
  const lock = database.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const result = await sql`
    update documents
    set index_status = case
          when attempts >= ${options.maxAttempts} then (case index_status when 'parsing' then 'parsing_failed' else 'indexing_failed' end)
          else (case index_status when 'parsing' then 'not_parsed' else 'not_indexed' end) end,
        error = case when attempts >= ${options.maxAttempts} then ${options.reason} else error end,
        lease_owner = null, lease_expires_at = null, updated_at = ${options.nowIso}
    where seq in (select seq from documents where ${expired} and index_status in ('parsing', 'indexing') ${lock})
      and ${expired} and index_status in ('parsing', 'indexing')`.execute(database.db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Whether every lease found when a process starts belongs to a process now dead: true for SQLite,
 * which one process serves (its ingestion threads start after this check); PostgreSQL's leases
 * may be held by live workers elsewhere, so only expired ones go back.
 */
export const leasesDieWithTheProcess = (database: Database): boolean => database.dialect === 'sqlite';

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

const signal = new EventEmitter();
signal.setMaxListeners(0);
/**
 * The queue's wake-up call inside one thread: services that make a document claimable call
 * `notifyDocumentsQueued`, idle workers listening here start at once instead of at their next poll
 * (engine/ingest/thread.ts forwards it to the ingestion threads).
 */
export function onDocumentQueued(listener: () => void): () => void {
  signal.on('queued', listener);
  return () => signal.off('queued', listener);
}
export const notifyDocumentsQueued = (): void => {
  signal.emit('queued');
};
