import { EventEmitter } from 'node:events';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type Clock, isoOf } from '../../clock.ts';
import type { Database, DB } from '../../db/schema.ts';
import type { DocumentSourceType, IndexStatus } from '../../db/tables/retrieval.ts';
import type { Backend } from '../backend.ts';

/**
 * The documents table as a durable work queue, and the one owner of a document's states, leases
 * and attempts:
 *
 *   not_parsed --claim--> parsing --parsed--> indexing --finish--> indexed
 *   not_indexed --claim--> indexing                       \--fail--> parsing_failed | indexing_failed
 *
 * A claim moves waiting documents to `parsing` or `indexing` in one atomic UPDATE and stamps a
 * lease (PostgreSQL adds FOR UPDATE SKIP LOCKED, so concurrent workers never wait on, or take, the
 * same row). The holder renews it while it works; a lease that runs out (its worker died) puts the
 * document back. Every claim counts an attempt for the documents it takes (the count starts again
 * whenever the document is queued anew), so a waiting document with attempts is one whose worker
 * died while holding it: it is claimed again alone, never in a batch, and the attempts it then
 * runs up are its own. Only the document that stops its worker MAX_ATTEMPTS times fails, with a
 * reason saying so. A release (the worker stops, the database is busy, a dependency is down) hands
 * documents back with the claim's attempt taken back: no document was at fault.
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

export interface ClaimedDocument {
  id: string;
  seq: number;
  organization_id: string;
  collection_id: string;
  path: string;
  index_status: Extract<IndexStatus, 'parsing' | 'indexing'>;
  source_type: DocumentSourceType;
  file_hash: string;
  /** Not 0 when the raw file is no longer kept: it is made from the stored text or pages (ingest/document-rows.ts FileInText). */
  file_in_text: number;
  size: number;
  attempts: number;
}

export type FailedStatus = 'parsing_failed' | 'indexing_failed';
export type QueueScope = { collectionId: string } | { organizationId: string };

/** The queue as the domain and the ingestion workers use it. */
export interface DocumentQueue {
  /** The state columns of a document (re)queued to be parsed or indexed: no lease, no attempts, no error. */
  queuedState(status?: 'not_parsed' | 'not_indexed'): QueuedState;
  /** Once documents queued by a transaction are committed: idle workers of this process start at once. */
  notifyQueued(): void;
  onQueued(listener: () => void): () => void;
  /** One document to work on alone (retried or large) or a batch of small fresh ones, oldest first. */
  claim(owner: string, rules?: LeaseRules): Promise<ClaimedDocument[]>;
  /** Extends the leases `owner` still holds; answers the ids it holds no longer (deleted, replaced or handed on). */
  renew(owner: string, documentIds: string[], rules?: LeaseRules): Promise<Set<string>>;
  /** parsing -> indexing, in `trx`, if the lease is still `owner`'s; false when it was lost. */
  markParsed(trx: Kysely<DB>, owner: string, documentId: string, numPages: number): Promise<boolean>;
  /** Locks, in `trx` and until it ends, those of these documents whose lease is still `owner`'s; answers the ids whose lease was lost. */
  lock(trx: Kysely<DB>, owner: string, documentIds: string[]): Promise<Set<string>>;
  /** -> indexed, in `trx`, those of these documents whose lease is still `owner`'s; answers their ids. */
  finish(trx: Kysely<DB>, owner: string, documentIds: string[]): Promise<Set<string>>;
  /** -> parsing_failed or indexing_failed with a reason its owner reads, if the lease is still `owner`'s. */
  fail(owner: string, documentId: string, status: FailedStatus, reason: string): Promise<void>;
  /** Hands documents back unworked, the claim's attempt taken back (every one `owner` holds when `documentIds` is omitted); how many. */
  release(owner: string, documentIds?: string[]): Promise<number>;
  /** Puts documents whose lease ran out back in the queue (or fails them, see above); how many. */
  recoverExpired(): Promise<number>;
  /** When a process that runs ingestion starts: SQLite's leases all died with their process; elsewhere the expired ones go back. */
  recoverAtStart(): Promise<number>;
  /** Documents and their text bytes by status, read from the status indexes alone (migration 015). */
  counts(scope: QueueScope): Promise<Map<IndexStatus, { count: number; bytes: number }>>;
}

export type QueuedState = ReturnType<typeof queuedState>;

const queuedState = (status: 'not_parsed' | 'not_indexed' = 'not_parsed') =>
  ({ index_status: status, error: null, lease_owner: null, lease_expires_at: null, attempts: 0 }) as const;

/** The lease check, written once: the row is still `owner`'s. */
const heldBy = (owner: string): Expression<SqlBool> => sql<SqlBool>`lease_owner = ${owner}`;
const waiting = sql`index_status in ('not_parsed', 'not_indexed')`;
const working = sql`index_status in ('parsing', 'indexing')`;
const returning = sql`returning id, seq, organization_id, collection_id, path, index_status, source_type, file_hash, file_in_text, size, attempts`;

/** The queue over `database`, on `backend`'s SQL and `clock`'s time. */
export function documentQueue(database: Database, backend: Backend, clock: Clock, rules: LeaseRules = defaultLeaseRules): DocumentQueue {
  return new SqlDocumentQueue(database.db, backend, clock, rules);
}

class SqlDocumentQueue implements DocumentQueue {
  readonly #db: Kysely<DB>;
  readonly #backend: Backend;
  readonly #clock: Clock;
  readonly #rules: LeaseRules;
  readonly #signal = new EventEmitter().setMaxListeners(0);
  /** PostgreSQL: rows another worker's transaction holds are skipped, never waited for. */
  readonly #skipLocked: RawBuilder<unknown>;
  /** SQLite needs none: a write transaction holds the whole database from its start (db/sqlite-dialect.ts). */
  readonly #forUpdate: RawBuilder<unknown>;

  constructor(db: Kysely<DB>, backend: Backend, clock: Clock, rules: LeaseRules) {
    this.#db = db;
    this.#backend = backend;
    this.#clock = clock;
    this.#rules = rules;
    this.#skipLocked = backend === 'postgres' ? sql`for update skip locked` : sql``;
    this.#forUpdate = backend === 'postgres' ? sql`for update` : sql``;
  }

  queuedState = queuedState;

  notifyQueued(): void {
    this.#signal.emit('queued');
  }

  onQueued(listener: () => void): () => void {
    this.#signal.on('queued', listener);
    return () => void this.#signal.off('queued', listener);
  }

  async claim(owner: string, rules = this.#rules): Promise<ClaimedDocument[]> {
    const alone = await this.#claimWhere(owner, sql`seq = (${aloneCandidate(rules, this.#skipLocked)})`, rules);
    if (alone.rows.length > 0) return normalised(alone.rows);
    const pick = batchCandidates(rules, this.#skipLocked);
    // PostgreSQL: `= any(array(...))` makes the pick an init plan, run once whatever the plan (see aloneCandidate).
    const batch = await this.#claimWhere(owner, this.#backend === 'postgres' ? sql`seq = any(array(${pick}))` : sql`seq in (${pick})`, rules);
    return normalised(batch.rows);
  }

  async renew(owner: string, documentIds: string[], rules = this.#rules): Promise<Set<string>> {
    if (documentIds.length === 0) return new Set();
    const { rows } = await sql<{ id: string }>`update documents set lease_expires_at = ${this.#leaseEnd(rules)}
      where ${heldBy(owner)} and id in (${sql.join(documentIds)}) returning id`.execute(this.#db);
    return idsMissing(documentIds, rows);
  }

  async markParsed(trx: Kysely<DB>, owner: string, documentId: string, numPages: number): Promise<boolean> {
    const result = await trx.updateTable('documents').set({ index_status: 'indexing', num_pages: numPages, updated_at: this.#now() }).where('id', '=', documentId).where(heldBy(owner)).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async lock(trx: Kysely<DB>, owner: string, documentIds: string[]): Promise<Set<string>> {
    if (documentIds.length === 0) return new Set();
    const { rows } = await sql<{ id: string }>`select id from documents where ${heldBy(owner)} and id in (${sql.join(documentIds)}) ${this.#forUpdate}`.execute(trx);
    return idsMissing(documentIds, rows);
  }

  async finish(trx: Kysely<DB>, owner: string, documentIds: string[]): Promise<Set<string>> {
    if (documentIds.length === 0) return new Set();
    const rows = await trx
      .updateTable('documents')
      .set({ index_status: 'indexed', error: null, ...noLease, updated_at: this.#now() })
      .where('id', 'in', documentIds)
      .where(heldBy(owner))
      .returning('id')
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  async fail(owner: string, documentId: string, status: FailedStatus, reason: string): Promise<void> {
    await this.#db.updateTable('documents').set({ index_status: status, error: reason, ...noLease, updated_at: this.#now() }).where('id', '=', documentId).where(heldBy(owner)).execute();
  }

  async release(owner: string, documentIds?: string[]): Promise<number> {
    if (documentIds?.length === 0) return 0;
    const which = documentIds ? sql`and id in (${sql.join(documentIds)})` : sql``;
    const result = await sql`update documents
      set index_status = case index_status when 'parsing' then 'not_parsed' else 'not_indexed' end,
          attempts = case when attempts > 0 then attempts - 1 else 0 end, lease_owner = null, lease_expires_at = null, updated_at = ${this.#now()}
      where ${heldBy(owner)} ${which} and ${working}`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0);
  }

  recoverExpired(): Promise<number> {
    return this.#requeue(sql<SqlBool>`lease_owner is not null and lease_expires_at < ${this.#clock.nowMs()}`);
  }

  recoverAtStart(): Promise<number> {
    // SQLite is served by one process, whose ingestion starts after this: every lease found is a dead one's.
    if (this.#backend === 'sqlite') return this.#requeue(sql<SqlBool>`lease_owner is not null`);
    return this.recoverExpired();
  }

  async counts(scope: QueueScope): Promise<Map<IndexStatus, { count: number; bytes: number }>> {
    const rows = await statusCountsQuery(this.#db, scope).execute();
    return new Map(rows.map((row) => [row.index_status, { count: Number(row.count), bytes: Number(row.bytes ?? 0) }]));
  }

  /** Puts the working documents `expired` selects back in the queue, or fails those out of attempts; how many. */
  async #requeue(expired: Expression<SqlBool>): Promise<number> {
    const result = await sql`
      update documents
      set index_status = case
            when attempts >= ${MAX_ATTEMPTS} then (case index_status when 'parsing' then 'parsing_failed' else 'indexing_failed' end)
            else (case index_status when 'parsing' then 'not_parsed' else 'not_indexed' end) end,
          error = case when attempts >= ${MAX_ATTEMPTS} then ${gaveUpReason} else error end,
          lease_owner = null, lease_expires_at = null, updated_at = ${this.#now()}
      where seq in (select seq from documents where ${expired} and ${working} ${this.#skipLocked})
        and ${expired} and ${working}`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0);
  }

  #claimWhere(owner: string, where: Expression<SqlBool>, rules: LeaseRules) {
    return sql<ClaimedDocument>`update documents
      set index_status = case index_status when 'not_parsed' then 'parsing' else 'indexing' end,
          lease_owner = ${owner}, lease_expires_at = ${this.#leaseEnd(rules)}, attempts = attempts + 1, updated_at = ${this.#now()}
      where ${where} and ${waiting} ${returning}`.execute(this.#db);
  }

  #leaseEnd(rules: Pick<LeaseRules, 'leaseMs' | 'bytesPerLeaseMs'>) {
    return sql`${this.#clock.nowMs() + rules.leaseMs} + size / ${rules.bytesPerLeaseMs}`;
  }

  #now(): string {
    return isoOf(this.#clock);
  }
}

/** Those of `ids` that are not among `rows`. */
function idsMissing(ids: string[], rows: { id: string }[]): Set<string> {
  const found = new Set(rows.map((row) => row.id));
  return new Set(ids.filter((id) => !found.has(id)));
}

const noLease = { lease_owner: null, lease_expires_at: null } as const;

/**
 * The one document to claim alone: one whose earlier claim never finished (its worker died holding
 * it), or a large one while fewer than `maxLarge` are held; each found through an index of its own
 * (migration 029), the oldest of the two taken. `seq = (...)`, a subquery run once: as
 * `seq in (...)` PostgreSQL could run it again for each row it joined, each run taking another
 * document, so one claim could lease several large documents at once.
 */
function aloneCandidate(rules: LeaseRules, skipLocked: ReturnType<typeof sql>) {
  const largeAllowed = sql`(select count(*) from documents where lease_owner is not null and size >= ${rules.largeBytes}) < ${rules.maxLarge}`;
  const oldest = (where: ReturnType<typeof sql>) =>
    sql`select seq, created_at from (select seq, created_at from documents where ${waiting} and ${where} order by created_at, seq limit 1 ${skipLocked}) oldest`;
  const retried = oldest(sql`attempts > 0 and (size < ${rules.largeBytes} or ${largeAllowed})`);
  const large = oldest(sql`size >= ${rules.largeBytes} and ${largeAllowed}`);
  return sql`select seq from (${retried} union all ${large}) alone order by created_at, seq limit 1`;
}

/**
 * Fresh small documents, oldest first, while their running total stays within the batch's bytes
 * (PostgreSQL locks rows in the inner query: FOR UPDATE cannot sit beside a window function).
 */
function batchCandidates(rules: LeaseRules, skipLocked: ReturnType<typeof sql>) {
  return sql`
    select seq from (
      select seq, sum(size) over (order by created_at, seq) as running from (
        select seq, size, created_at from documents
        where ${waiting} and attempts = 0 and size < ${rules.largeBytes}
        order by created_at, seq limit ${rules.batchSize} ${skipLocked}
      ) oldest
    ) candidates where running <= ${Math.max(rules.batchBytes, rules.largeBytes)}`;
}

function normalised(rows: ClaimedDocument[]): ClaimedDocument[] {
  return rows.map((row) => ({ ...row, seq: Number(row.seq), size: Number(row.size), attempts: Number(row.attempts) })).sort((a, b) => a.seq - b.seq);
}

/** A collection's (or an organization's) documents and their text bytes by status: clients poll it while they upload. */
export function statusCountsQuery(db: Kysely<DB>, scope: QueueScope) {
  const query = db
    .selectFrom('documents')
    .select((eb) => ['index_status', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('text_bytes').as('bytes')])
    .groupBy('index_status');
  return 'collectionId' in scope ? query.where('collection_id', '=', scope.collectionId) : query.where('organization_id', '=', scope.organizationId);
}
