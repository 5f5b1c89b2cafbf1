import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type ClaimedDocument, claimDocument, renewLease, requeueLeases } from '../db/queue.ts';
import type { Database, DB } from '../db/schema.ts';
import { searchIndex } from '../db/search/index.ts';
import { onDocumentQueued } from '../domain/documents.ts';
import { fileStore } from '../domain/file-store.ts';
import { addDocumentEvent, type CollectionRef } from '../domain/usage-events.ts';
import { chunkPages } from './chunker.ts';
import { ParseError, parseFile } from './parse.ts';
import { countTokens } from './tokens.ts';

export interface IngestWorkerOptions {
  database: Database;
  dataDir: string;
  /** Documents handled at once by this process. */
  concurrency: number;
  leaseMs?: number;
  /** Longest sleep when the queue looks empty (a new document wakes in-process workers at once). */
  idlePollMs?: number;
  log?: { info(message: string): void; error(object: unknown, message?: string): void };
}

export interface IngestWorkers {
  /** Resolves when every loop has finished its current document. */
  stop(): Promise<void>;
  /** Resolves once the queue is empty and no document is in hand (tests, benchmarks). */
  idle(): Promise<void>;
}

/** A lease outlives a stalled worker by at most this long; holders renew it every third of it. */
const DEFAULT_LEASE_MS = 30_000;

/** Marks a failure during the indexing phase: the document ends as `indexing_failed`. */
class IndexingError extends Error {}

/**
 * Ingestion loops over the documents queue: claim (lease) -> parse -> chunk -> write pages,
 * chunks and index rows in one transaction -> `indexed`. Failures end as `parsing_failed` or
 * `indexing_failed` with the reason; a process that dies mid-document leaves a lease that runs
 * out (or, with SQLite, is released when the server starts again).
 */
export async function startIngestWorkers(options: IngestWorkerOptions): Promise<IngestWorkers> {
  const { database, concurrency } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const idlePollMs = options.idlePollMs ?? 1000;
  const owner = `${process.pid}-${randomUUID()}`;
  const files = fileStore(options.dataDir);
  const index = searchIndex(database);

  // SQLite is served by one process, so any lease found at start belongs to a process now dead.
  const requeued = await requeueLeases(database, { all: database.dialect === 'sqlite' });
  if (requeued > 0) options.log?.info(`ingest: ${requeued} interrupted document(s) back in the queue`);

  let stopped = false;
  let busy = 0;
  let wake: (() => void) | null = null;
  const sleepers = new Set<() => void>();
  const idleWaiters = new Set<() => void>();
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
    requeueLeases(database, { all: false })
      .then((count) => count > 0 && wake?.())
      .catch((error) => options.log?.error({ err: error }, 'ingest: lease sweep failed'));
  }, Math.max(1000, leaseMs / 2));

  const loop = async () => {
    while (!stopped) {
      let job: ClaimedDocument | null = null;
      try {
        job = await claimDocument(database, owner, leaseMs);
      } catch (error) {
        options.log?.error({ err: error }, 'ingest: claiming failed');
      }
      if (!job) {
        if (busy === 0) [...idleWaiters].forEach((resolve) => resolve());
        await nap(idlePollMs);
        continue;
      }
      busy++;
      try {
        await processDocument(job);
      } catch (error) {
        options.log?.error({ err: error, document: job.id }, 'ingest: document failed unexpectedly');
      } finally {
        busy--;
      }
    }
  };

  const processDocument = async (job: ClaimedDocument) => {
    const renewal = setInterval(() => void renewLease(database, job.id, owner, leaseMs).catch(() => {}), leaseMs / 3);
    try {
      const collection = await collectionOf(database.db, job);
      if (!collection) return; // deleted meanwhile, with the document
      let pages: string[];
      if (job.index_status === 'parsing') {
        const startedAt = performance.now();
        let parsed: { pages: string[]; ocrPages: number };
        try {
          parsed = await parseSource(job);
        } catch (error) {
          await fail(job, 'parsing_failed', reasonOf(error));
          return;
        }
        pages = parsed.pages;
        const moved = await database.db.transaction().execute(async (trx) => {
          const result = await trx
            .updateTable('documents')
            .set({ index_status: 'indexing', num_pages: pages.length, updated_at: new Date().toISOString() })
            .where('id', '=', job.id)
            .where('lease_owner', '=', owner)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) return false;
          await addDocumentEvent(trx, collection, 'parsed', {
            fileBytes: job.size,
            pages: pages.length,
            ocrPages: parsed.ocrPages,
            timeMs: performance.now() - startedAt,
          });
          return true;
        });
        if (!moved) return; // lease lost: the document was deleted, replaced or handed to another worker
      } else {
        pages = await storedPages(job);
      }
      try {
        await indexPages(job, collection, pages);
      } catch (error) {
        await fail(job, 'indexing_failed', reasonOf(error));
      }
    } finally {
      clearInterval(renewal);
    }
  };

  /** Pages of the raw file: text inputs directly, files through the parsers. */
  const parseSource = async (job: ClaimedDocument): Promise<{ pages: string[]; ocrPages: number }> => {
    let bytes: Buffer;
    try {
      bytes = await files.read(job.file_hash);
    } catch {
      throw new ParseError('The raw document data is missing from storage.');
    }
    if (job.source_type === 'text') return { pages: [bytes.toString('utf8')], ocrPages: 0 };
    if (job.source_type === 'text-pages' || job.source_type === 'text-pages-unordered') {
      return { pages: JSON.parse(bytes.toString('utf8')) as string[], ocrPages: 0 };
    }
    return parseFile(bytes, { filename: job.path });
  };

  /** A document indexed again (new metadata, retried indexing) reuses its parsed pages. */
  const storedPages = async (job: ClaimedDocument): Promise<string[]> => {
    const rows = await database.db.selectFrom('pages').select('content').where('document_id', '=', job.id).orderBy('page_index').execute();
    if (rows.length > 0) return rows.map((row) => row.content);
    return (await parseSource(job)).pages;
  };

  const indexPages = async (job: ClaimedDocument, collection: CollectionRef, pages: string[]) => {
    const startedAt = performance.now();
    const chunked = chunkPages(pages);
    await database.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const held = await trx
        .updateTable('documents')
        .set({
          index_status: 'indexed',
          text: chunked.text,
          text_bytes: Buffer.byteLength(chunked.text, 'utf8'),
          num_pages: chunked.pages.length,
          error: null,
          lease_owner: null,
          lease_expires_at: null,
          updated_at: now,
        })
        .where('id', '=', job.id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return; // lease lost: leave the document to its new state
      try {
        await trx.deleteFrom('pages').where('document_id', '=', job.id).execute();
        await trx.deleteFrom('chunks').where('document_id', '=', job.id).execute();
        await index.unindexDocumentText(trx, job.seq);
        await insertInBatches(
          trx,
          'pages',
          chunked.pages.map((page) => ({
            id: randomUUID(),
            document_id: job.id,
            collection_id: job.collection_id,
            page_index: page.page_index,
            content: page.content,
            start_index: page.start_index,
            end_index: page.end_index,
          })),
        );
        for (const granularity of ['coarse', 'fine'] as const) {
          await insertInBatches(
            trx,
            'chunks',
            chunked[granularity].map((snippet) => ({
              document_id: job.id,
              collection_id: job.collection_id,
              granularity,
              content: snippet.content,
              start_index: snippet.start_index,
              end_index: snippet.end_index,
              page_start: snippet.page_span[0],
              page_end: snippet.page_span[1],
            })),
          );
        }
        await index.indexDocumentText(trx, { seq: job.seq, collectionId: job.collection_id, text: chunked.text });
        await addDocumentEvent(trx, collection, 'indexed', {
          fileBytes: job.size,
          contentTokens: countTokens(chunked.text),
          coarseChunks: chunked.coarse.length,
          fineChunks: chunked.fine.length,
          pages: chunked.pages.length,
          timeMs: performance.now() - startedAt,
        });
      } catch (error) {
        throw new IndexingError(reasonOf(error));
      }
    });
  };

  const fail = async (job: ClaimedDocument, status: 'parsing_failed' | 'indexing_failed', reason: string) => {
    await database.db
      .updateTable('documents')
      .set({ index_status: status, error: reason, lease_owner: null, lease_expires_at: null, updated_at: new Date().toISOString() })
      .where('id', '=', job.id)
      .where('lease_owner', '=', owner)
      .execute();
  };

  const loops = Array.from({ length: Math.max(1, concurrency) }, () => loop());
  return {
    async stop() {
      stopped = true;
      clearInterval(sweep);
      unsubscribe();
      wake?.();
      await Promise.all(loops);
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.add(function done() {
          idleWaiters.delete(done);
          resolve();
        });
        wake?.();
      }),
  };
}

async function collectionOf(db: Kysely<DB>, job: ClaimedDocument): Promise<CollectionRef | null> {
  const row = await db.selectFrom('collections').select('name').where('id', '=', job.collection_id).executeTakeFirst();
  return row ? { organizationId: job.organization_id, collectionId: job.collection_id, collectionName: row.name } : null;
}

/** Multi-row inserts, sized under SQLite's bound-parameter limit. */
async function insertInBatches<T extends 'pages' | 'chunks'>(trx: Kysely<DB>, table: T, rows: Parameters<ReturnType<Kysely<DB>['insertInto']>['values']>[0][]) {
  for (let start = 0; start < rows.length; start += 500) {
    await trx.insertInto(table).values(rows.slice(start, start + 500) as never).execute();
  }
}

/** A reason a person can read: parser messages as they are, anything else by its message. */
function reasonOf(error: unknown): string {
  if (error instanceof ParseError || error instanceof IndexingError) return error.message;
  if (error instanceof SyntaxError) return `The document data could not be read: ${error.message}`;
  return error instanceof Error && error.message ? error.message : 'Unknown error';
}
