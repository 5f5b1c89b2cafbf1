import { type Kysely, sql } from 'kysely';
import { type ClaimedDocument, claimDocuments, leasesDieWithTheProcess, renewLeases, requeueLeases } from './claims.ts';
import type { Database, DB } from '../../db/schema.ts';
import { nowIso, nowMs } from '../../domain/clock.ts';

export type { ClaimedDocument };

/**
 * The one owner of a document's states and leases, on the one clock:
 *
 *   not_parsed --claim--> parsing --parsed--> indexing --finish--> indexed
 *   not_indexed --claim--> indexing                       \--fail--> parsing_failed | indexing_failed
 *
 * A claim stamps a lease that the worker renews while it works; a lease that runs out (its worker
 * died) puts the document back in the queue. Every claim counts an attempt for the documents it
 * takes (the count starts again whenever the document is queued anew), so a waiting document with
 * attempts is one whose worker died while holding it: it is claimed again alone, never in a batch, and the attempts it then
 * runs up are its own. A batch that died is thus retried one document at a time, and only the
 * document that stops its worker MAX_ATTEMPTS times fails, with a reason saying so.
 */
export const MAX_ATTEMPTS = 3;
export const gaveUpReason = `Gave up after ${MAX_ATTEMPTS} attempts: processing this document stopped the worker each time.`;

export interface LeaseRules {
  /** A lease outlives a stalled worker by at most this long (plus its size's share); holders renew it every third of it. */
  leaseMs: number;
  /** Documents claimed at once: enough to amortise a transaction and its full-text flush, few enough to keep the write lock short. */
  batchSize: number;
  /** Most raw bytes in one batch (at least `largeBytes`). */
  batchBytes: number;
  /** Documents from this size on are parsed and indexed alone... */
  largeBytes: number;
  /** ...and at most this many of them are in workers' hands at once (memory stays bounded). */
  maxLarge: number;
  /**
   * A lease grows by 1 ms per this many bytes of the document (60 s more for 30 MB): one
   * synchronous step of parsing or indexing a large document can outlast a renewal period.
   */
  bytesPerLeaseMs: number;
}

export const defaultLeaseRules: LeaseRules = {
  leaseMs: 30_000,
  batchSize: 32,
  batchBytes: 16 * 1024 * 1024,
  largeBytes: 4 * 1024 * 1024,
  maxLarge: 1,
  bytesPerLeaseMs: 512,
};

/** The state columns of a document (re)queued to be parsed or indexed: no lease, no attempts, no error. */
export function queuedState(status: 'not_parsed' | 'not_indexed' = 'not_parsed') {
  return { index_status: status, error: null, lease_owner: null, lease_expires_at: null, attempts: 0 } as const;
}

/** Claims one document to work on alone or a batch of small ones (see engine/queue/claims.ts). */
export function claim(database: Database, owner: string, rules: LeaseRules): Promise<ClaimedDocument[]> {
  return claimDocuments(database, {
    owner,
    now: nowMs(),
    nowIso: nowIso(),
    leaseMs: rules.leaseMs,
    bytesPerLeaseMs: rules.bytesPerLeaseMs,
    limit: rules.batchSize,
    batchBytes: Math.max(rules.batchBytes, rules.largeBytes),
    largeBytes: rules.largeBytes,
    maxLarge: rules.maxLarge,
  });
}

/** Extends the leases this owner still holds. */
export function renew(database: Database, owner: string, documentIds: string[], rules: Pick<LeaseRules, 'leaseMs' | 'bytesPerLeaseMs'>): Promise<void> {
  return renewLeases(database, owner, documentIds, { now: nowMs(), leaseMs: rules.leaseMs, bytesPerLeaseMs: rules.bytesPerLeaseMs });
}

/** parsing -> indexing, if the lease is still ours; false when it was lost (deleted, replaced or handed on). */
export async function markParsed(trx: Kysely<DB>, owner: string, documentId: string, numPages: number): Promise<boolean> {
  const result = await trx
    .updateTable('documents')
    .set({ index_status: 'indexing', num_pages: numPages, updated_at: nowIso() })
    .where('id', '=', documentId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** -> indexed, if the lease is still ours. */
export async function finish(trx: Kysely<DB>, owner: string, documentId: string): Promise<boolean> {
  const result = await trx
    .updateTable('documents')
    .set({ index_status: 'indexed', error: null, lease_owner: null, lease_expires_at: null, updated_at: nowIso() })
    .where('id', '=', documentId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** -> parsing_failed or indexing_failed with a reason its owner reads, if the lease is still ours. */
export async function fail(database: Database, owner: string, documentId: string, status: 'parsing_failed' | 'indexing_failed', reason: string): Promise<void> {
  await database.db
    .updateTable('documents')
    .set({ index_status: status, error: reason, lease_owner: null, lease_expires_at: null, updated_at: nowIso() })
    .where('id', '=', documentId)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Hands documents back to the queue unworked (the worker stops, or the database was too busy):
 * the claim's attempt is taken back, since no document was at fault.
 */
export async function release(database: Database, owner: string, documentIds: string[]): Promise<void> {
  if (documentIds.length === 0) return;
  await sql`update documents
    set index_status = case index_status when 'parsing' then 'not_parsed' else 'not_indexed' end,
        attempts = case when attempts > 0 then attempts - 1 else 0 end, lease_owner = null, lease_expires_at = null, updated_at = ${nowIso()}
    where lease_owner = ${owner} and id in (${sql.join(documentIds)}) and index_status in ('parsing', 'indexing')`.execute(database.db);
}

/** Puts documents whose lease ran out back in the queue (or fails them, see above); how many. */
export function recoverExpired(database: Database): Promise<number> {
  return requeueLeases(database, { all: false, now: nowMs(), nowIso: nowIso(), maxAttempts: MAX_ATTEMPTS, reason: gaveUpReason });
}

/**
 * When a process that runs ingestion starts: with a database that leases die with (SQLite), every
 * lease found belongs to a process now dead and goes back at once; elsewhere the expired ones.
 */
export function recoverAtStart(database: Database): Promise<number> {
  return requeueLeases(database, { all: leasesDieWithTheProcess(database), now: nowMs(), nowIso: nowIso(), maxAttempts: MAX_ATTEMPTS, reason: gaveUpReason });
}
