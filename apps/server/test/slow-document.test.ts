import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { FileStore } from '../src/domain/file-store.ts';
import { type IngestWorkers, type IngestWorkerOptions, startIngestWorkers } from '../src/engine/ingest/worker.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Two workers share the queue with a short lease (and no extra time for a document's size); a
 * document takes them far longer than that. Its worker renews the lease while it works, so the
 * other never takes the document over: one claim, and it ends `indexed`. On SQLite and on
 * PostgreSQL (TEST_POSTGRES_URL).
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
let workers: IngestWorkers[] = [];
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await f.workers.stop();
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await h.close();
});

const startTwoWorkers = async (leases: IngestWorkerOptions['leases'], files: FileStore = h.files) => {
  await Promise.all(workers.map((worker) => worker.stop()));
  workers = [];
  for (let i = 0; i < 2; i++) workers.push(await startIngestWorkers({ database: h.database, files, concurrency: 1, idlePollMs: 50, leases }));
};

const expectIndexedOnce = async (collection: string, path: string) => {
  await Promise.all(workers.map((worker) => worker.idle()));
  const row = await h.database.db.selectFrom('documents').select(['index_status', 'attempts', 'error']).where('path', '=', path).executeTakeFirstOrThrow();
  expect(row).toEqual({ index_status: 'indexed', attempts: 1, error: null });
  const search = await h.call('/v1/queries/top-snippets', { collection_name: collection, query: 'northern lighthouse', k: 3 }, f.keyA);
  expect(search.body.results.length).toBeGreaterThan(0);
};

const sentence = 'The keeper of the northern lighthouse logged every passing ship and storm. ';

test('a document slower than the lease (its raw file takes three leases to read) is processed once, by one worker, and ends indexed', { timeout: 120_000 }, async () => {
  const leaseMs = 1000;
  // Slow storage: the document takes three leases, with the thread free to renew meanwhile.
  const files = h.files;
  const slowFiles: FileStore = {
    ...files,
    read: async (hash) => (await sleep(3 * leaseMs), files.read(hash)),
    close: async () => {},
  };
  await startTwoWorkers({ leaseMs, bytesPerLeaseMs: Number.MAX_SAFE_INTEGER }, slowFiles);
  await h.call('/v1/collections/add-collection', { collection_name: 'slow-read' }, f.keyA);
  const pages = Array.from({ length: 5 }, (_, i) => `Page ${i}. ${sentence.repeat(20)}`);
  const added = await h.call('/v1/documents/add-document', { collection_name: 'slow-read', path: 'slow-read.txt', content: { type: 'text-pages', pages } }, f.keyA);
  expect(added.status).toBe(201);
  await expectIndexedOnce('slow-read', 'slow-read.txt');
});

// SQLite only: a large document whose steps (chunking, indexing) are long synchronous stretches,
// with a 300 ms lease. Both workers share this thread; with SQLite the holder's renewal after a
// stretch runs before the other's lease sweep. With PostgreSQL both are network round trips in
// flight at once, and which lands first is a race that no real deployment runs: real workers get
// a lease of 30 s plus 1 ms per 512 bytes, and live in other processes.
test.skipIf(process.env.SIFT_TEST_DIALECT === 'postgres')('a large document slower than the lease is processed once, by one worker, and ends indexed', { timeout: 120_000 }, async () => {
  await startTwoWorkers({ leaseMs: 300, bytesPerLeaseMs: Number.MAX_SAFE_INTEGER });
  await h.call('/v1/collections/add-collection', { collection_name: 'slow' }, f.keyA);
  const pages = Array.from({ length: 300 }, (_, i) => `Page ${i}. ${sentence.repeat(130)}`);
  const added = await h.call('/v1/documents/add-document', { collection_name: 'slow', path: 'slow.txt', content: { type: 'text-pages', pages } }, f.keyA);
  expect(added.status).toBe(201);
  await expectIndexedOnce('slow', 'slow.txt');
});
