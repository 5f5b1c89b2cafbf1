import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToTimers } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { isDatabaseBusy } from '../../db/contention.ts';
import { onDocumentQueued } from '../queue/claims.ts';
import type { Database, DB } from '../../db/schema.ts';
import { searchIndex } from '../search/index.ts';
import { type ClaimedDocument, claim, defaultLeaseRules, fail as failDocument, finish, type LeaseRules, markParsed as markDocumentParsed, recoverExpired, release, renew } from '../queue/document-states.ts';
import type { FileStore } from '../../domain/file-store.ts';
import { addDocumentEvent, type CollectionRef } from '../../domain/usage-events.ts';
import { collectGarbage } from '../../memory.ts';
import { type ChunkedDocument, chunkPages } from './chunker.ts';
import { documentRowWrites, storedPagesOf } from './document-rows.ts';
import { ParseError, parseFile } from './parse.ts';
import { storableText } from './parsers/text.ts';
import { countTokens } from './tokens.ts';

export interface IngestWorkerOptions {
  database: Database;
  /** Where the raw files are (the installation's store: a bucket, PostgreSQL or the data folder). */
  files: FileStore;
  /** Documents handled at once by this process. */
  concurrency: number;
  /** Lease length, batch size and the large-document limit (document-states.ts has the defaults). */
  leases?: Partial<LeaseRules>;
  /** Longest sleep when the queue looks empty (a new document wakes in-process workers at once). */
  idlePollMs?: number;
  log?: { info(message: string): void; error(object: unknown, message?: string): void };
  /**
   * The count of searches this process has answered (search-activity.ts): with PostgreSQL, a loop
   * that saw searches answered while it processed a batch pauses before the next (SEARCH_PACE).
   */
  searchesAnswered?: Int32Array;
}

export interface IngestWorkers {
  /**
   * Stops claiming. Resolves when every loop has finished its documents in hand or, with
   * `graceMs`, once that time is up; documents still held then go back to the queue uncharged.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** Resolves once the queue is empty and no document is in hand (tests, benchmarks). */
  idle(): Promise<void>;
}

/**
 * Ingestion loops over the documents queue: claim (lease) -> parse -> chunk -> write pages,
 * chunks and index rows in one transaction -> `indexed`. Failures end as `parsing_failed` or
 * `indexing_failed` with the reason; a process that dies mid-document leaves a lease that runs
 * out (or, with SQLite, is released when the server starts again: recoverAtStart). Every state
 * change goes through engine/queue/document-states.ts.
 */
export async function startIngestWorkers(options: IngestWorkerOptions): Promise<IngestWorkers> {
  const { database, concurrency } = options;
  const rules: LeaseRules = { ...defaultLeaseRules, ...options.leases };
  const { leaseMs } = rules;
  const idlePollMs = options.idlePollMs ?? 1000;
  const owner = `${process.pid}-${randomUUID()}`;
  const { files } = options;
  const index = searchIndex(database);
  // SQLite's ingestion threads run at a lower CPU priority (thread-priority.ts); PostgreSQL does the
  // indexing's work in its own processes, which that cannot reach, so the loops yield instead.
  const { searchesAnswered } = options;
  const pacesForSearches = database.dialect === 'postgres' && searchesAnswered !== undefined;
  const searchCount = () => (searchesAnswered ? Atomics.load(searchesAnswered, 0) : 0);

  let stopped = false;
  let busy = 0;
  let wake: (() => void) | null = null;
  const sleepers = new Set<() => void>();
  // Each waiter with the number of claims begun when it came: only a claim begun after it finds
  // the queue as it is now (a claim already running may have missed a document just queued).
  const idleWaiters = new Map<() => void, number>();
  let claimsBegun = 0;
  // Claims not yet answered: stop() waits for them, or what they claim would stay leased.
  const claimsInFlight = new Set<Promise<unknown>>();
  // When a batch last began or ended: index upkeep waits for a quiet queue.
  let lastWorkAt = performance.now();
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  wake = () => [...sleepers].forEach((done) => done());
  const unsubscribe = onDocumentQueued(() => wake?.());
  const sweep = setInterval(() => {
    recoverExpired(database)
      .then((count) => count > 0 && wake?.())
      .catch((error) => isDatabaseBusy(error) || options.log?.error({ err: error }, 'ingest: lease sweep failed'));
  }, leaseMs / 2);

  const loop = async () => {
    while (!stopped) {
      let jobs: ClaimedDocument[];
      const claimNumber = ++claimsBegun;
      const claiming = claim(database, owner, rules);
      claimsInFlight.add(claiming);
      try {
        jobs = await claiming;
      } catch (error) {
        // A busy database is no fault: the loop naps and claims again.
        if (!isDatabaseBusy(error)) options.log?.error({ err: error }, 'ingest: claiming failed');
        await nap(BUSY_BACKOFF_MS);
        continue;
      } finally {
        claimsInFlight.delete(claiming);
      }
      // Claimed while being told to stop: stop() hands these back with the rest.
      if (stopped) break;
      if (jobs.length === 0) {
        await index.applyDeletions().catch((error) => options.log?.error({ err: error }, 'ingest: applying search deletions failed'));
        if (busy === 0) for (const [resolve, since] of [...idleWaiters]) if (claimNumber > since) resolve();
        // Index upkeep once the queue has stayed empty for a whole poll, a bounded step at a time,
        // each after the queue was found empty again: merging between the batches of a stream of
        // uploads would rewrite a growing collection's segments again and again.
        const quiet = performance.now() - lastWorkAt >= idlePollMs;
        const moreUpkeep =
          quiet &&
          (await index.upkeepStep().catch((error) => {
            if (!isDatabaseBusy(error)) options.log?.error({ err: error }, 'ingest: search index upkeep failed');
            return false;
          }));
        if (!moreUpkeep) await nap(idlePollMs);
        continue;
      }
      busy++;
      lastWorkAt = performance.now();
      const searchesBefore = searchCount();
      try {
        await processBatch(jobs);
        if (pacesForSearches && searchCount() !== searchesBefore) await pause(Math.min(PACE_MOST_MS, (performance.now() - lastWorkAt) * SEARCH_PACE));
      } catch (error) {
        if (isDatabaseBusy(error)) {
          // Not the documents' fault: they go back to the queue, and this loop backs off a moment.
          await release(database, owner, jobs.map((job) => job.id)).catch(() => {});
          await nap(BUSY_BACKOFF_MS);
        } else {
          options.log?.error({ err: error }, 'ingest: batch failed unexpectedly');
        }
      } finally {
        busy--;
        lastWorkAt = performance.now();
        // A large document leaves hundreds of MB of garbage that an idle thread would keep.
        if (jobs.some((job) => job.size >= rules.largeBytes)) collectGarbage();
      }
    }
  };

  /** Parses what needs parsing, then indexes every parsed document of the batch together. */
  const processBatch = async (jobs: ClaimedDocument[]) => {
    const lease = keepLeases(jobs.map((job) => job.id));
    try {
      const collections = await collectionsOf(database.db, jobs);
      const ready: Prepared[] = [];
      for (const job of jobs) {
        const collection = collections.get(job.collection_id);
        if (!collection) continue; // deleted meanwhile, with the document
        const prepared = await prepare(job, collection);
        if (prepared) ready.push(prepared);
        await lease.betweenSteps();
      }
      if (ready.length === 0) return;
      try {
        await writeIndex(ready, lease);
      } catch (error) {
        // Index one by one, so a document that cannot be written fails alone.
        if (isDatabaseBusy(error)) throw error; // the loop hands the batch back
        if (ready.length === 1) return await fail(ready[0]!.job, 'indexing_failed', error);
        for (const item of ready) {
          await writeIndex([item], lease).catch((failure) => fail(item.job, 'indexing_failed', failure));
        }
      }
    } finally {
      lease.stop();
    }
  };

  /**
   * Renews a batch's leases every third of a lease: on a timer, and after each step, since one
   * long synchronous step (parsing or indexing a large document) holds timers back.
   */
  const keepLeases = (documentIds: string[]): LeaseKeeper => {
    let renewedAt = performance.now();
    const renewNow = () => {
      renewedAt = performance.now();
      return renew(database, owner, documentIds, rules).catch(() => {});
    };
    const timer = setInterval(() => void renewNow(), leaseMs / 3);
    return {
      async betweenSteps() {
        if (performance.now() - renewedAt >= leaseMs / 3) await renewNow();
        // Timers (this renewal's, the lease sweep) run between steps, not only between batches.
        await yieldToTimers();
      },
      stop: () => clearInterval(timer),
    };
  };

  /** Pages and snippets of one claimed document, or null when it failed (and was marked so). */
  const prepare = async (job: ClaimedDocument, collection: CollectionRef): Promise<Prepared | null> => {
    const startedAt = performance.now();
    let pages: string[];
    let parsed: Prepared['parsed'] = null;
    if (job.index_status === 'parsing') {
      let result: { pages: string[]; ocrPages: number };
      try {
        result = await parseSource(job);
      } catch (error) {
        await fail(job, 'parsing_failed', error);
        return null;
      }
      pages = result.pages;
      parsed = { pages: pages.length, ocrPages: result.ocrPages, timeMs: performance.now() - startedAt };
      if (job.source_type === 'auto') {
        // A file took real parsing work: record it, and show `indexing`, before indexing.
        if (!(await markParsed(job, collection, parsed))) return null;
        parsed = null;
      }
    } else {
      try {
        pages = await storedPages(job);
      } catch (error) {
        await fail(job, 'indexing_failed', error);
        return null;
      }
    }
    try {
      const chunked = chunkPages(pages);
      return { job, collection, chunked, contentTokens: countTokens(chunked.text), parsed, startedAt };
    } catch (error) {
      await fail(job, 'indexing_failed', error);
      return null;
    }
  };

  const markParsed = async (job: ClaimedDocument, collection: CollectionRef, parsed: NonNullable<Prepared['parsed']>) =>
    database.db.transaction().execute(async (trx) => {
      if (!(await markDocumentParsed(trx, owner, job.id, parsed.pages))) return false; // lease lost: deleted, replaced or handed on
      await addDocumentEvent(trx, collection, 'parsed', { fileBytes: job.size, pages: parsed.pages, ocrPages: parsed.ocrPages, timeMs: parsed.timeMs });
      return true;
    });

  /** Pages of the raw file: text inputs directly, files through the parsers. */
  const parseSource = async (job: ClaimedDocument): Promise<{ pages: string[]; ocrPages: number }> => {
    let bytes: Buffer;
    try {
      bytes = await files.read(job.file_hash);
    } catch {
      throw new ParseError('The raw document data is missing from storage.');
    }
    if (job.source_type === 'text') return { pages: [storableText(bytes.toString('utf8'))], ocrPages: 0 };
    if (job.source_type === 'text-pages' || job.source_type === 'text-pages-unordered') {
      return { pages: (JSON.parse(bytes.toString('utf8')) as string[]).map(storableText), ocrPages: 0 };
    }
    return parseFile(bytes, { filename: job.path });
  };

  /** A document indexed again (new metadata, retried indexing) reuses its parsed pages. */
  const storedPages = async (job: ClaimedDocument): Promise<string[]> => {
    const pages = await storedPagesOf(database.db, job.id);
    return pages.length > 0 ? pages : (await parseSource(job)).pages;
  };

  /**
   * Three steps, none holding the database's write lock for long, so HTTP writes (uploads) go on
   * while documents are indexed:
   * 1. one transaction: each document still leased to us gets its text, and its pages and
   *    snippets in place of older ones. Statements are compiled before it begins.
   * 2. the search index takes them in (with SQLite, a transaction on the search file only);
   * 3. one transaction: those still leased to us become `indexed`; the usage events of the batch.
   * A process that dies between steps leaves its documents leased, so they are indexed again.
   */
  const writeIndex = async (items: Prepared[], lease: LeaseKeeper): Promise<void> => {
    const { db } = database;
    const { holds, writes } = documentRowWrites(db, owner, items);
    const ids = items.map((item) => item.job.id);
    // Compiling a large document's rows is a long synchronous step: its leases are renewed now,
    // if due, before the transaction (whose row locks hold renewals back until it commits).
    await lease.betweenSteps();
    const lost = await db.transaction().execute(async (trx) => {
      const lostIds: string[] = [];
      for (const [i, hold] of holds.entries()) {
        const result = await trx.executeQuery(hold);
        if (Number(result.numAffectedRows ?? 0) === 0) lostIds.push(items[i]!.job.id);
      }
      // A document deleted, replaced or handed on meanwhile: redo the batch without it.
      if (lostIds.length > 0) throw new LeaseLost(lostIds);
      for (const write of writes) await trx.executeQuery(write);
      return [] as string[];
    }).catch((error: unknown) => {
      if (error instanceof LeaseLost) return error.documentIds;
      throw error;
    });
    if (lost.length > 0) {
      const kept = items.filter((item) => !lost.includes(item.job.id));
      if (kept.length > 0) await writeIndex(kept, lease);
      return;
    }
    await lease.betweenSteps();
    // A large document's compiled rows are garbage now: collected before the index reads and
    // analyzes the document again (eight 60 MB uploads peaked near the 1.5 GB limit).
    if (items.some((item) => item.job.size >= rules.largeBytes)) collectGarbage();
    await index.indexDocuments(ids);
    await lease.betweenSteps();
    await db.transaction().execute(async (trx) => {
      const indexed: Prepared[] = [];
      for (const item of items) {
        // Lost since step 1: deleted (its rows with it) or handed on (its new holder rewrites them).
        if (await finish(trx, owner, item.job.id)) indexed.push(item);
      }
      await addBatchEvents(trx, indexed);
    });
  };

  /** Usage events of a batch, summed per collection: one upsert per collection and kind. */
  const addBatchEvents = async (trx: Kysely<DB>, items: Prepared[]) => {
    const byCollection = new Map<string, Prepared[]>();
    for (const item of items) byCollection.set(item.collection.collectionId, [...(byCollection.get(item.collection.collectionId) ?? []), item]);
    const elapsed = performance.now();
    for (const group of byCollection.values()) {
      const collection = group[0]!.collection;
      const parsed = group.filter((item) => item.parsed);
      if (parsed.length > 0) {
        await addDocumentEvent(trx, collection, 'parsed', {
          count: parsed.length,
          fileBytes: sum(parsed, (item) => item.job.size),
          pages: sum(parsed, (item) => item.parsed!.pages),
          ocrPages: sum(parsed, (item) => item.parsed!.ocrPages),
          timeMs: sum(parsed, (item) => item.parsed!.timeMs),
        });
      }
      await addDocumentEvent(trx, collection, 'indexed', {
        count: group.length,
        fileBytes: sum(group, (item) => item.job.size),
        contentTokens: sum(group, (item) => item.contentTokens),
        coarseChunks: sum(group, (item) => item.chunked.coarse.length),
        fineChunks: sum(group, (item) => item.chunked.fine.length),
        pages: sum(group, (item) => item.chunked.pages.length),
        timeMs: sum(group, (item) => elapsed - item.startedAt),
      });
    }
  };

  /** A document's own failure ends it failed with the reason; a busy database only hands it back. */
  const fail = async (job: ClaimedDocument, status: 'parsing_failed' | 'indexing_failed', error: unknown) => {
    if (isDatabaseBusy(error)) await release(database, owner, [job.id]);
    else await failDocument(database, owner, job.id, status, reasonOf(error));
  };

  const loops = Array.from({ length: Math.max(1, concurrency) }, () => loop());
  return {
    async stop({ graceMs } = {}) {
      stopped = true;
      clearInterval(sweep);
      unsubscribe();
      wake?.();
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (timer = graceMs === undefined ? undefined : setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(loops), ...(graceMs === undefined ? [] : [graceOver])]);
      clearTimeout(timer);
      await Promise.allSettled([...claimsInFlight]);
      // What a loop still holds goes back now, not a lease later (SIGTERM: another worker takes it).
      const held = await database.db.selectFrom('documents').select('id').where('lease_owner', '=', owner).execute();
      await release(database, owner, held.map((row) => row.id));
      if (held.length > 0) options.log?.info(`ingest: ${held.length} document(s) handed back to the queue`);
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.set(function done() {
          idleWaiters.delete(done);
          resolve();
        }, claimsBegun);
        wake?.();
      }),
  };
}

/** A claimed document ready to index: its snippets, and its parse figures when parsed just now. */
interface Prepared {
  job: ClaimedDocument;
  collection: CollectionRef;
  chunked: ChunkedDocument;
  contentTokens: number;
  parsed: { pages: number; ocrPages: number; timeMs: number } | null;
  startedAt: number;
}

interface LeaseKeeper {
  /** Renews the leases if a third of a lease has passed, then lets timers run. */
  betweenSteps(): Promise<void>;
  stop(): void;
}

/** How long a loop waits after the database was too busy to take its work. */
const BUSY_BACKOFF_MS = 500;

/**
 * PostgreSQL: after a batch during which searches were answered, a loop pauses this share of the
 * batch's time before claiming the next, leaving the database's CPU to the searches. Ingesting
 * 1,000 documents beside 50 clients searching (bench/fair-probe.ts --postgres, 2 cores), searches
 * kept 52.6-55.2% of their idle rate and ingestion 51-55% of its own without pausing; 58.2% and
 * 43% pausing half the batch's time, 62.7% and 36% at three quarters, 65.7-68.0% and 33-36% at
 * the whole (#13: at least half, and at least a quarter). Once searches cost less (their
 * statement without the documents table, postgres.ts), three quarters left them 49.6-60.3% of
 * their idle rate in three `npm run bench -- load --postgres` runs, ingestion 31.5-35.7%; at the
 * whole batch's time, 63.7% and 37.7% (`--skip-large`).
 */
const SEARCH_PACE = 1;

/**
 * The longest such pause: a large document's batch takes minutes, and a stop waits for the pause
 * (the pauses of small documents' batches, tens of milliseconds, are what share the CPU).
 */
const PACE_MOST_MS = 1000;

/** A pause that new documents do not cut short (unlike the loops' naps). */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const sum = <T>(items: T[], value: (item: T) => number) => items.reduce((total, item) => total + value(item), 0);

async function collectionsOf(db: Kysely<DB>, jobs: ClaimedDocument[]): Promise<Map<string, CollectionRef>> {
  const ids = [...new Set(jobs.map((job) => job.collection_id))];
  const rows = await db.selectFrom('collections').select(['id', 'name', 'organization_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, { organizationId: row.organization_id, collectionId: row.id, collectionName: row.name }]));
}

class LeaseLost extends Error {
  constructor(readonly documentIds: string[]) {
    super('lease lost');
  }
}

/** A reason a person can read: parser messages as they are, anything else by its message. */
function reasonOf(error: unknown): string {
  if (error instanceof ParseError) return error.message;
  if (error instanceof SyntaxError) return `The document data could not be read: ${error.message}`;
  return error instanceof Error && error.message ? error.message : 'Unknown error';
}
