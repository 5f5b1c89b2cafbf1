import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimDocuments, MAX_ATTEMPTS, requeueLeases } from '../src/db/queue.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** The documents table as a queue: atomic claims, leases that run out, and giving up. */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await f.workers.stop(); // these tests drive the queue by hand
  await h.call('/v1/collections/add-collection', { collection_name: 'q' }, f.keyA);
  for (let i = 0; i < 10; i++) {
    await h.call('/v1/documents/add-document', { collection_name: 'q', path: `d${i}`, content: { type: 'text', text: `text ${i}` } }, f.keyA);
  }
});
afterAll(() => h.close());

const statusOf = async (path: string) =>
  (await h.database.db.selectFrom('documents').select(['index_status', 'error', 'lease_owner', 'attempts']).where('path', '=', path).executeTakeFirstOrThrow());

test('concurrent claims never hand one document to two workers', async () => {
  const [a, b] = await Promise.all([claimDocuments(h.database, 'a', 60_000, 4), claimDocuments(h.database, 'b', 60_000, 4)]);
  const ids = [...a, ...b].map((job) => job.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(8);
  expect((await statusOf(a[0]!.path)).index_status).toBe('parsing');
});

test('an expired lease puts the document back; a document claimed too often fails with a reason', async () => {
  await h.database.db.updateTable('documents').set({ lease_expires_at: Date.now() - 1 }).where('lease_owner', '=', 'a').execute();
  expect(await requeueLeases(h.database, { all: false })).toBe(4);
  const [job] = await claimDocuments(h.database, 'c', 60_000, 1);
  await h.database.db.updateTable('documents').set({ attempts: MAX_ATTEMPTS, lease_expires_at: Date.now() - 1 }).where('id', '=', job!.id).execute();
  await requeueLeases(h.database, { all: false });
  const failed = await statusOf(job!.path);
  expect(failed).toMatchObject({ index_status: 'parsing_failed', lease_owner: null });
  expect(failed.error).toMatch(/Gave up after 3 attempts/);
  // Leases still running are left alone, unless every lease is released (the SQLite server starting).
  expect(await requeueLeases(h.database, { all: false })).toBe(0);
  expect(await requeueLeases(h.database, { all: true })).toBe(4);
});
