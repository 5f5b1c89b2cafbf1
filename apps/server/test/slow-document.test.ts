import { afterAll, beforeAll, expect, test } from 'vitest';
import { type IngestWorkers, startIngestWorkers } from '../src/ingest/worker.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Two workers share the queue with a 300 ms lease (and no extra time for a document's size); a
 * document takes them far longer than that to parse, chunk and index. Its worker renews the lease
 * while it works, so the other never takes the document over: one claim, and it ends `indexed`.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const workers: IngestWorkers[] = [];
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await f.workers.stop();
  const leases = { leaseMs: 300, bytesPerLeaseMs: Number.MAX_SAFE_INTEGER };
  for (let i = 0; i < 2; i++) workers.push(await startIngestWorkers({ database: h.database, files: h.files, concurrency: 1, idlePollMs: 50, leases }));
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await h.close();
});

// SQLite only: both workers share this test's thread, and with PostgreSQL's network round trips the
// other worker's sweep can run before the holder's renewal after a synchronous step (chunking)
// longer than this 300 ms lease. Real workers get a lease of 30 s plus 1 ms per 512 bytes.
test.skipIf(process.env.SIFT_TEST_DIALECT === 'postgres')('a document slower than the lease is processed once, by one worker, and ends indexed', { timeout: 120_000 }, async () => {
  await h.call('/v1/collections/add-collection', { collection_name: 'slow' }, f.keyA);
  const sentence = 'The keeper of the northern lighthouse logged every passing ship and storm. ';
  const pages = Array.from({ length: 300 }, (_, i) => `Page ${i}. ${sentence.repeat(130)}`);
  const added = await h.call('/v1/documents/add-document', { collection_name: 'slow', path: 'slow.txt', content: { type: 'text-pages', pages } }, f.keyA);
  expect(added.status).toBe(201);
  await Promise.all(workers.map((worker) => worker.idle()));

  const row = await h.database.db.selectFrom('documents').select(['index_status', 'attempts', 'error']).where('path', '=', 'slow.txt').executeTakeFirstOrThrow();
  expect(row).toEqual({ index_status: 'indexed', attempts: 1, error: null });
  const search = await h.call('/v1/queries/top-snippets', { collection_name: 'slow', query: 'northern lighthouse', k: 3 }, f.keyA);
  expect(search.body.results.length).toBe(3);
});
