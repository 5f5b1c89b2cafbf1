import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToTimers } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { BulkInserts } from '../../db/bulk-insert.ts';
import { isDatabaseBusy } from '../../db/contention.ts';
import type { Database, DB } from '../../db/schema.ts';
import type { FileStore } from '../../file-store.ts';
import { collectGarbage } from '../../memory.ts';
import type { Backend } from '../backend.ts';
import { type ClaimedDocument, defaultLeaseRules, type DocumentQueue, type FailedStatus, type LeaseRules } from '../queue/document-queue.ts';
import type { SearchActivity } from '../search-activity.ts';
import type { SearchIndex } from '../search/types.ts';
import { type ChunkedDocument, chunkPages } from './chunker.ts';
import { documentRowWrites, FileInText, fileInTextOf, keptFileOf, storedPagesOf } from './document-rows.ts';
import { Backoff, isDependencyDown, readObject } from './outage.ts';
import { ParseError, type Parser, ParsingStopped } from './parse.ts';
import { storableText } from './parsers/text.ts';
import { countTokens } from './tokens.ts';
import type { DocumentUsage, IngestCollection } from './usage.ts';

export interface IngestLog {
  info(message: string): void;
  error(object: unknown, message?: string): void;
}

export interface IngestWorkerOptions {
  database: Database;
  backend: Backend;
  queue: DocumentQueue;
  search: SearchIndex;
  /** Reads files into pages (the engine's Parser, whose processes it closes). */
  parser: Pick<Parser, 'parse'>;
  /** Where the raw files are (the installation's store: a bucket, PostgreSQL or the data folder). */
  files: FileStore;
  /** Where documents parsed and indexed are counted (the domain's usage events). */
  usage: DocumentUsage;
  /** Documents handled at once by this process. */
  concurrency: number;
  /** Lease length, batch size and the large-document limit (document-queue.ts has the defaults). */
  leases?: Partial<LeaseRules>;
  /** Longest sleep when the queue looks empty (a new document wakes in-process workers at once). */
  idlePollMs?: number;
  log?: IngestLog;
  /**
   * The searches this server answers: with PostgreSQL, a loop that saw searches answered while it
   * processed a batch pauses before the next (SEARCH_PACE).
   */
  searchActivity?: SearchActivity;
}

export interface IngestWorkers {
  /**
   * Stops claiming. Resolves when every loop has finished its documents in hand or, with
   * `graceMs`, once that time is up (their parses are told to stop); documents still held then go
   * back to the queue uncharged.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** Resolves once the queue is empty and no document is in hand (tests, benchmarks). */
  idle(): Promise<void>;
}

/**
 * Ingestion loops over the document queue: claim -> parse -> chunk -> index -> finish. A document
 * fails (`parsing_failed`, `indexing_failed`, with the reason) only for its own fault; a busy
 * database or a dependency that is down (the database, the object store) hands the batch back to
 * the queue uncharged and the loop backs off. A process that dies mid-document leaves a lease that
 * runs out. Every state change goes through the queue (engine/queue/document-queue.ts).
 */
export async function startIngestWorkers(options: IngestWorkerOptions): Promise<IngestWorkers> {
  const ingestion = newIngestion(options);
  const unsubscribe = options.queue.onQueued(() => ingestion.waker.wake());
  const sweep = setInterval(() => void sweepExpired(ingestion), ingestion.rules.leaseMs / 2);
  const loops = Array.from({ length: Math.max(1, options.concurrency) }, () => runLoop(ingestion));
  return {
    async stop({ graceMs } = {}) {
      ingestion.stopped = true;
      clearInterval(sweep);
      unsubscribe();
      ingestion.waker.wake();
      await withinGrace(Promise.all(loops), graceMs, () => ingestion.stopping.abort());
      await Promise.allSettled([...ingestion.claimsInFlight]);
      // What a loop still holds goes back now, not a lease later (SIGTERM: another worker takes it).
      await handBackAll(ingestion);
    },
    idle: () => {
      const idle = ingestion.idle.wait();
      ingestion.waker.wake();
      return idle;
    },
  };
}

/** The state of one process's ingestion loops, shared by them. */
interface Ingestion extends IngestWorkerOptions {
  owner: string;
  rules: LeaseRules;
  idlePollMs: number;
  /** PostgreSQL's pacing after searches: the count of searches answered, when it applies. */
  pacing: SearchActivity | null;
  backoff: Backoff;
  waker: Waker;
  idle: IdleWatch;
  stopped: boolean;
  /** Aborted once a stop's grace is over: parses still running are told to stop. */
  stopping: AbortController;
  /** Claims not yet answered: stop() waits for them, or what they claim would stay leased. */
  claimsInFlight: Set<Promise<unknown>>;
  /** Documents to hand back once the database answers again (it was away when they were released). */
  toRelease: Set<string>;
  /** When a batch last began or ended: index upkeep waits for a quiet queue. */
  lastWorkAt: number;
  bulkInserts: BulkInserts;
}

function newIngestion(options: IngestWorkerOptions): Ingestion {
  return {
    ...options,
    owner: `${process.pid}-${randomUUID()}`,
    rules: { ...defaultLeaseRules, ...options.leases },
    idlePollMs: options.idlePollMs ?? 1000,
    // SQLite's ingestion threads run at a lower CPU priority (thread-priority.ts); PostgreSQL does the
    // indexing's work in its own processes, which that cannot reach, so the loops yield instead.
    pacing: options.backend === 'postgres' ? (options.searchActivity ?? null) : null,
    backoff: new Backoff(options.log),
    waker: new Waker(),
    idle: new IdleWatch(),
    stopped: false,
    stopping: new AbortController(),
    claimsInFlight: new Set(),
    toRelease: new Set(),
    lastWorkAt: performance.now(),
    bulkInserts: new BulkInserts(options.database.db),
  };
}

/** One loop: claim, then work on what was claimed, or tend the index while the queue is empty. */
async function runLoop(ingestion: Ingestion): Promise<void> {
  while (!ingestion.stopped) {
    const claimNumber = ++ingestion.idle.claimsBegun;
    const jobs = await claimNext(ingestion);
    // Claimed while being told to stop: stop() hands these back with the rest.
    if (jobs === null || ingestion.stopped) continue;
    if (jobs.length === 0) await whenQueueEmpty(ingestion, claimNumber);
    else await runBatch(ingestion, jobs);
  }
}

/** The next claim (after handing back what an outage kept), or null when it failed and the loop waited. */
async function claimNext(ingestion: Ingestion): Promise<ClaimedDocument[] | null> {
  const { queue, owner, rules } = ingestion;
  const claiming = handBackPending(ingestion).then(() => queue.claim(owner, rules));
  ingestion.claimsInFlight.add(claiming);
  try {
    const jobs = await claiming;
    ingestion.backoff.succeeded();
    return jobs;
  } catch (error) {
    await ingestion.waker.nap(waitAfter(ingestion, error, 'ingest: claiming failed'));
    return null;
  } finally {
    ingestion.claimsInFlight.delete(claiming);
  }
}

/**
 * How long to wait after `error`: a dependency down backs off (exponentially, said once), a busy
 * database a moment; anything else is logged and waited on like busy.
 */
function waitAfter(ingestion: Ingestion, error: unknown, what: string): number {
  if (isDependencyDown(error)) return ingestion.backoff.failed(error);
  if (!isDatabaseBusy(error)) ingestion.log?.error({ err: error }, what);
  return BUSY_BACKOFF_MS;
}

async function whenQueueEmpty(ingestion: Ingestion, claimNumber: number): Promise<void> {
  const { search, log } = ingestion;
  await search.applyDeletions().catch((error) => isDependencyDown(error) || log?.error({ err: error }, 'ingest: applying search deletions failed'));
  ingestion.idle.queueFound(claimNumber);
  // Index upkeep once the queue has stayed empty for a whole poll, a bounded step at a time, each
  // after the queue was found empty again: merging between the batches of a stream of uploads
  // would rewrite a growing collection's segments again and again.
  const quiet = performance.now() - ingestion.lastWorkAt >= ingestion.idlePollMs;
  const moreUpkeep =
    quiet &&
    (await search.upkeepStep().catch((error) => {
      if (!isDatabaseBusy(error) && !isDependencyDown(error)) log?.error({ err: error }, 'ingest: search index upkeep failed');
      return false;
    }));
  if (!moreUpkeep) await ingestion.waker.nap(ingestion.idlePollMs);
}

/** Works on a claimed batch; when that was not the documents' fault, hands it back and backs off. */
async function runBatch(ingestion: Ingestion, jobs: ClaimedDocument[]): Promise<void> {
  ingestion.idle.busy++;
  ingestion.lastWorkAt = performance.now();
  const searchesBefore = ingestion.pacing?.answered();
  try {
    await processBatch(ingestion, jobs);
    ingestion.backoff.succeeded();
    if (ingestion.pacing && ingestion.pacing.answered() !== searchesBefore) await pause(Math.min(PACE_MOST_MS, (performance.now() - ingestion.lastWorkAt) * SEARCH_PACE));
  } catch (error) {
    if (isDatabaseBusy(error) || isDependencyDown(error)) {
      await handBack(ingestion, jobs.map((job) => job.id));
      await ingestion.waker.nap(waitAfter(ingestion, error, 'ingest: batch handed back'));
    } else {
      // The documents stay leased: their leases run out, and one that keeps doing this fails (MAX_ATTEMPTS).
      ingestion.log?.error({ err: error }, 'ingest: batch failed unexpectedly');
    }
  } finally {
    ingestion.idle.busy--;
    ingestion.lastWorkAt = performance.now();
    // A large document leaves hundreds of MB of garbage that an idle thread would keep.
    if (jobs.some((job) => job.size >= ingestion.rules.largeBytes)) collectGarbage();
  }
}

/** Parses what needs parsing, then indexes every parsed document of the batch together. */
async function processBatch(ingestion: Ingestion, jobs: ClaimedDocument[]): Promise<void> {
  const lease = keepLeases(ingestion, jobs.map((job) => job.id));
  try {
    const collections = await collectionsOf(ingestion.database.db, jobs);
    const ready: Prepared[] = [];
    for (const job of jobs) {
      const collection = collections.get(job.collection_id);
      if (!collection) continue; // deleted meanwhile, with the document
      const prepared = await prepare(ingestion, job, collection, lease.signalOf(job.id));
      if (prepared) ready.push(prepared);
      await lease.betweenSteps();
    }
    if (ready.length > 0) await indexBatch(ingestion, ready, lease);
  } finally {
    lease.stop();
  }
}

/** Indexes the batch together; when that fails, one by one, so a document that cannot be written fails alone. */
async function indexBatch(ingestion: Ingestion, ready: Prepared[], lease: LeaseKeeper): Promise<void> {
  try {
    await writeIndex(ingestion, ready, lease);
  } catch (error) {
    if (ready.length === 1) return settle(ingestion, ready[0]!.job, 'indexing_failed', error);
    if (isDatabaseBusy(error) || isDependencyDown(error)) throw error; // the loop hands the batch back
    for (const item of ready) {
      await writeIndex(ingestion, [item], lease).catch((failure) => settle(ingestion, item.job, 'indexing_failed', failure));
    }
  }
}

/**
 * Renews a batch's leases every third of a lease: on a timer, and after each step, since one
 * long synchronous step (parsing or indexing a large document) holds timers back. A document
 * whose renewal finds it no longer ours (deleted, replaced) has its signal aborted.
 */
function keepLeases(ingestion: Ingestion, documentIds: string[]): LeaseKeeper {
  const { queue, owner, rules } = ingestion;
  const held = new Map(documentIds.map((id) => [id, new AbortController()]));
  let renewedAt = performance.now();
  const renewNow = async () => {
    renewedAt = performance.now();
    // A database away: the leases stand as they are until it answers again.
    const lost = await queue.renew(owner, documentIds, rules).catch(() => new Set<string>());
    for (const id of lost) held.get(id)?.abort(new LeaseLost([id]));
  };
  const timer = setInterval(() => void renewNow(), rules.leaseMs / 3);
  // A stop past its grace stops every parse in hand (a listener removed with the batch: the stop signal outlives many).
  const { signal: stopping } = ingestion.stopping;
  const stopAll = () => held.forEach((controller) => controller.abort(stopping.reason));
  if (stopping.aborted) stopAll();
  else stopping.addEventListener('abort', stopAll, { once: true });
  return {
    signalOf: (documentId) => held.get(documentId)!.signal,
    async betweenSteps() {
      if (performance.now() - renewedAt >= rules.leaseMs / 3) await renewNow();
      // Timers (this renewal's, the lease sweep) run between steps, not only between batches.
      await yieldToTimers();
    },
    stop() {
      clearInterval(timer);
      stopping.removeEventListener('abort', stopAll);
    },
  };
}

/** Pages and snippets of one claimed document, or null when it failed (and was marked so) or was lost. */
async function prepare(ingestion: Ingestion, job: ClaimedDocument, collection: IngestCollection, signal: AbortSignal): Promise<Prepared | null> {
  const startedAt = performance.now();
  const pages = await pagesOf(ingestion, job, collection, signal);
  if (!pages) return null;
  try {
    const chunked = chunkPages(pages.pages);
    return { job, collection, chunked, fileInText: fileInTextOf(chunked, job), contentTokens: countTokens(chunked.text), parsed: pages.parsed, startedAt };
  } catch (error) {
    await settle(ingestion, job, 'indexing_failed', error);
    return null;
  }
}

/** The pages of a document: parsed now (with its parse figures, unless recorded already), or those stored. */
async function pagesOf(ingestion: Ingestion, job: ClaimedDocument, collection: IngestCollection, signal: AbortSignal): Promise<{ pages: string[]; parsed: ParseFigures | null } | null> {
  if (job.index_status !== 'parsing') {
    try {
      return { pages: await storedPages(ingestion, job, signal), parsed: null };
    } catch (error) {
      await settle(ingestion, job, 'indexing_failed', error, signal);
      return null;
    }
  }
  const startedAt = performance.now();
  let result: { pages: string[]; ocrPages: number };
  try {
    result = await parseSource(ingestion, job, signal);
  } catch (error) {
    await settle(ingestion, job, 'parsing_failed', error, signal);
    return null;
  }
  const parsed = { pages: result.pages.length, ocrPages: result.ocrPages, timeMs: performance.now() - startedAt };
  if (job.source_type !== 'auto') return { pages: result.pages, parsed };
  // A file took real parsing work: record it, and show `indexing`, before indexing.
  return (await markParsed(ingestion, job, collection, parsed)) ? { pages: result.pages, parsed: null } : null;
}

/** parsing -> indexing with the parse's usage event; false when the lease was lost (deleted, replaced or handed on). */
const markParsed = ({ database, queue, owner, usage }: Ingestion, job: ClaimedDocument, collection: IngestCollection, parsed: ParseFigures) =>
  database.db.transaction().execute(async (trx) => {
    if (!(await queue.markParsed(trx, owner, job.id, parsed.pages))) return false;
    await usage(trx, collection, 'parsed', { fileBytes: job.size, pages: parsed.pages, ocrPages: parsed.ocrPages, timeMs: parsed.timeMs });
    return true;
  });

/** Pages of the raw file: text inputs directly, files through the parsers. */
async function parseSource({ files, database, parser }: Ingestion, job: ClaimedDocument, signal: AbortSignal): Promise<{ pages: string[]; ocrPages: number }> {
  const bytes = (job.file_in_text ? (await keptFileOf(database.db, job.id))?.bytes : null) ?? (await readObject((hash) => files.read(hash), job.file_hash));
  if (job.source_type === 'text') return { pages: [storableText(bytes.toString('utf8'))], ocrPages: 0 };
  if (job.source_type === 'text-pages' || job.source_type === 'text-pages-unordered') {
    return { pages: (JSON.parse(bytes.toString('utf8')) as string[]).map(storableText), ocrPages: 0 };
  }
  return parser.parse(bytes, { filename: job.path, signal });
}

/** A document indexed again (new metadata, retried indexing) reuses its parsed pages. */
async function storedPages(ingestion: Ingestion, job: ClaimedDocument, signal: AbortSignal): Promise<string[]> {
  const pages = await storedPagesOf(ingestion.database.db, job.id);
  return pages.length > 0 ? pages : (await parseSource(ingestion, job, signal)).pages;
}

/**
 * A document's own failure ends it failed with the reason. A busy database or a dependency down
 * is no fault of it: thrown on, the loop hands the batch back. A parse stopped because the lease
 * was lost, the worker stops or the parse pool closed (shutdown) is no failure either: a stop
 * hands back what is held.
 */
async function settle(ingestion: Ingestion, job: ClaimedDocument, status: FailedStatus, error: unknown, signal?: AbortSignal): Promise<void> {
  if (isDatabaseBusy(error) || isDependencyDown(error)) throw error;
  if (signal?.aborted || error instanceof ParsingStopped) return;
  await ingestion.queue.fail(ingestion.owner, job.id, status, reasonOf(error));
}

/**
 * Three steps, none holding the database's write lock for long, so HTTP writes (uploads) go on
 * while documents are indexed:
 * 1. one transaction: each document still leased to us gets its text, and its pages and
 *    snippets in place of older ones (writeRows);
 * 2. the search index takes them in (with SQLite, a transaction on the search file only);
 * 3. one transaction: those still leased to us become `indexed`; the usage events of the batch.
 * A process that dies between steps leaves its documents leased, so they are indexed again.
 */
async function writeIndex(ingestion: Ingestion, items: Prepared[], lease: LeaseKeeper): Promise<void> {
  const kept = await writeRows(ingestion, items, lease);
  if (kept.length === 0) return;
  await lease.betweenSteps();
  // A large document's compiled rows are garbage now: collected before the index reads and
  // analyzes the document again, so the thread never holds both at once.
  if (kept.some((item) => item.job.size >= ingestion.rules.largeBytes)) collectGarbage();
  await ingestion.search.indexDocuments(kept.map((item) => item.job.id));
  await lease.betweenSteps();
  await finishBatch(ingestion, kept);
}

/** Step 1: the rows of the documents still leased to us, written again without any lost meanwhile; those written. */
async function writeRows(ingestion: Ingestion, items: Prepared[], lease: LeaseKeeper): Promise<Prepared[]> {
  let pending = items;
  while (pending.length > 0) {
    const writes = documentRowWrites(ingestion.bulkInserts, pending);
    // Compiling a large document's rows is a long synchronous step: its leases are renewed now,
    // if due, before the transaction (whose row locks hold renewals back until it commits).
    await lease.betweenSteps();
    const lost = await ingestion.database.db
      .transaction()
      .execute(async (trx) => {
        const lostIds = await ingestion.queue.lock(trx, ingestion.owner, pending.map((item) => item.job.id));
        // A document deleted, replaced or handed on meanwhile: the batch is written again without it.
        if (lostIds.size > 0) throw new LeaseLost([...lostIds]);
        for (const write of writes) await trx.executeQuery(write);
        return [] as string[];
      })
      .catch((error: unknown) => {
        if (error instanceof LeaseLost) return error.documentIds;
        throw error;
      });
    if (lost.length === 0) return pending;
    pending = pending.filter((item) => !lost.includes(item.job.id));
  }
  return [];
}

/** Step 3: those still leased to us become `indexed`, with the batch's usage events. */
async function finishBatch(ingestion: Ingestion, items: Prepared[]): Promise<void> {
  const indexed = await ingestion.database.db.transaction().execute(async (trx) => {
    // Those not finished were lost since step 1: deleted (their rows with them) or handed on (their new holder rewrites them).
    const finishedIds = await ingestion.queue.finish(trx, ingestion.owner, items.map((item) => item.job.id));
    const finished = items.filter((item) => finishedIds.has(item.job.id));
    await addBatchEvents(ingestion.usage, trx, finished);
    return finished;
  });
  // Raw files made again from their text or pages are not kept (file_in_text), unless another
  // document still needs them (FileStore.release checks). Left behind when the store is away:
  // removed with their documents. A document lost since step 1 is its new holder's to finish.
  const fileTexts = indexed.filter((item) => item.fileInText !== FileInText.kept).map((item) => item.job.file_hash);
  if (fileTexts.length > 0) await ingestion.files.release(ingestion.database, fileTexts).catch(() => {});
  // Kept files are compressed at rest; one that fails stays as uploaded, still read the same.
  const keptFiles = indexed.filter((item) => item.fileInText === FileInText.kept).map((item) => item.job.file_hash);
  await ingestion.files.compressKept(ingestion.database, keptFiles).catch(() => {});
}

/** Usage events of a batch, summed per collection: one upsert per collection and kind. */
async function addBatchEvents(usage: DocumentUsage, trx: Kysely<DB>, items: Prepared[]): Promise<void> {
  const byCollection = new Map<string, Prepared[]>();
  for (const item of items) byCollection.set(item.collection.collectionId, [...(byCollection.get(item.collection.collectionId) ?? []), item]);
  const elapsed = performance.now();
  for (const group of byCollection.values()) {
    const collection = group[0]!.collection;
    const parsed = group.filter((item) => item.parsed);
    if (parsed.length > 0) {
      await usage(trx, collection, 'parsed', {
        count: parsed.length,
        fileBytes: sum(parsed, (item) => item.job.size),
        pages: sum(parsed, (item) => item.parsed!.pages),
        ocrPages: sum(parsed, (item) => item.parsed!.ocrPages),
        timeMs: sum(parsed, (item) => item.parsed!.timeMs),
      });
    }
    await usage(trx, collection, 'indexed', {
      count: group.length,
      fileBytes: sum(group, (item) => item.job.size),
      contentTokens: sum(group, (item) => item.contentTokens),
      coarseChunks: sum(group, (item) => item.chunked.coarse.length),
      fineChunks: sum(group, (item) => item.chunked.fine.length),
      pages: sum(group, (item) => item.chunked.pages.length),
      timeMs: sum(group, (item) => elapsed - item.startedAt),
    });
  }
}

/** Hands documents back to the queue uncharged; with the database away, once it answers again. */
async function handBack(ingestion: Ingestion, documentIds: string[]): Promise<void> {
  await ingestion.queue.release(ingestion.owner, documentIds).catch(() => documentIds.forEach((id) => ingestion.toRelease.add(id)));
}

async function handBackPending(ingestion: Ingestion): Promise<void> {
  if (ingestion.toRelease.size === 0) return;
  await ingestion.queue.release(ingestion.owner, [...ingestion.toRelease]);
  ingestion.toRelease.clear();
}

async function handBackAll({ queue, owner, log }: Ingestion): Promise<void> {
  const count = await queue.release(owner).catch((error: unknown) => {
    log?.error({ err: error }, 'ingest: documents in hand could not be handed back; their leases will run out');
    return 0;
  });
  if (count > 0) log?.info(`ingest: ${count} document(s) handed back to the queue`);
}

/** Puts documents whose lease ran out back in the queue, and wakes the loops for them. */
async function sweepExpired({ queue, waker, log }: Ingestion): Promise<void> {
  try {
    if ((await queue.recoverExpired()) > 0) waker.wake();
  } catch (error) {
    if (!isDatabaseBusy(error) && !isDependencyDown(error)) log?.error({ err: error }, 'ingest: lease sweep failed');
  }
}

/** Waits for `work`, or with `graceMs` at most that long, then calls `graceOver`. */
async function withinGrace(work: Promise<unknown>, graceMs: number | undefined, graceOver: () => void): Promise<void> {
  if (graceMs === undefined) return void (await work);
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([work, over]);
  clearTimeout(timer);
  graceOver();
}

/** Naps that a new document (or a stop) cuts short. */
class Waker {
  private readonly sleepers = new Set<() => void>();

  nap(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  wake(): void {
    [...this.sleepers].forEach((done) => done());
  }
}

/**
 * Who waits for the queue to be empty. Each waiter with the number of claims begun when it came:
 * only a claim begun after it finds the queue as it is now (a claim already running may have
 * missed a document just queued).
 */
class IdleWatch {
  private readonly waiters = new Map<() => void, number>();
  claimsBegun = 0;
  /** Batches in hand. */
  busy = 0;

  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.waiters.delete(done);
        resolve();
      };
      this.waiters.set(done, this.claimsBegun);
    });
  }

  /** Claim number `claimNumber` found the queue empty. */
  queueFound(claimNumber: number): void {
    if (this.busy > 0) return;
    for (const [resolve, since] of [...this.waiters]) if (claimNumber > since) resolve();
  }
}

interface ParseFigures {
  pages: number;
  ocrPages: number;
  timeMs: number;
}

/** A claimed document ready to index: its snippets, and its parse figures when parsed just now. */
interface Prepared {
  job: ClaimedDocument;
  collection: IngestCollection;
  chunked: ChunkedDocument;
  /** Whether its raw file is made from its text or pages (fileInTextOf), computed once: not kept once indexed. */
  fileInText: FileInText;
  contentTokens: number;
  parsed: ParseFigures | null;
  startedAt: number;
}

interface LeaseKeeper {
  /** Aborted when the document is found no longer ours, or the worker stops past its grace. */
  signalOf(documentId: string): AbortSignal;
  /** Renews the leases if a third of a lease has passed, then lets timers run. */
  betweenSteps(): Promise<void>;
  stop(): void;
}

/** How long a loop waits after the database was too busy to take its work. */
const BUSY_BACKOFF_MS = 500;

/**
 * PostgreSQL: after a batch during which searches were answered, a loop pauses this share of the
 * batch's time before claiming the next, leaving the database's CPU to the searches: the aim is
 * that searches keep at least half their idle rate while ingesting, and ingestion at least a
 * quarter of its own.
 */
const SEARCH_PACE = 0.5;

/**
 * The longest such pause: a large document's batch takes minutes, and a stop waits for the pause
 * (the pauses of small documents' batches, tens of milliseconds, are what share the CPU).
 */
const PACE_MOST_MS = 1000;

/** A pause that new documents do not cut short (unlike the loops' naps). */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const sum = <T>(items: T[], value: (item: T) => number) => items.reduce((total, item) => total + value(item), 0);

async function collectionsOf(db: Kysely<DB>, jobs: ClaimedDocument[]): Promise<Map<string, IngestCollection>> {
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
