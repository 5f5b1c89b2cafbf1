import { afterAll, beforeAll, expect, test } from 'vitest';
import { defaultLeaseRules, MAX_ATTEMPTS } from '../src/engine/queue/document-queue.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** The documents table as a queue: atomic claims, leases that run out, and giving up. */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const rules = { ...defaultLeaseRules, leaseMs: 60_000, batchSize: 4 };
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
const expireLeases = (owner: string) => h.database.db.updateTable('documents').set({ lease_expires_at: Date.now() - 1 }).where('lease_owner', '=', owner).execute();

test('concurrent claims never hand one document to two workers', async () => {
  const [a, b] = await Promise.all([h.engine.queue.claim('a', rules), h.engine.queue.claim('b', rules)]);
  const ids = [...a, ...b].map((job) => job.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(8);
  expect((await statusOf(a[0]!.path)).index_status).toBe('parsing');
});

test('documents of a batch whose worker died are claimed again one at a time; one that keeps dying fails with a reason', async () => {
  await expireLeases('a');
  expect(await h.engine.queue.recoverExpired()).toBe(4);
  const [job, ...others] = await h.engine.queue.claim('c', rules);
  expect(others).toEqual([]);
  // Two more deaths of the same document: it fails, and only it.
  for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
    await expireLeases('c');
    await h.engine.queue.recoverExpired();
    if (attempt < MAX_ATTEMPTS) expect((await h.engine.queue.claim('c', rules)).map((claimed) => claimed.id)).toEqual([job!.id]);
  }
  const failed = await statusOf(job!.path);
  expect(failed).toMatchObject({ index_status: 'parsing_failed', lease_owner: null });
  expect(failed.error).toMatch(/Gave up after 3 attempts/);
  // Its batch neighbours wait to be claimed alone too, and have not been charged for its deaths.
  const next = await h.engine.queue.claim('d', rules);
  expect(next.length).toBe(1);
  expect(next[0]!.attempts).toBe(2);
  // Leases still running are left alone, unless every lease is released (the SQLite server starting).
  expect(await h.engine.queue.recoverExpired()).toBe(0);
  if (h.database.dialect === 'sqlite') expect(await h.engine.queue.recoverAtStart()).toBe(5);
});

test('a worker whose lease was taken over locks and finishes only the documents it still holds', async () => {
  for (const path of ['t0', 't1', 't2']) await h.call('/v1/documents/add-document', { collection_name: 'q', path, content: { type: 'text', text: path } }, f.keyA);
  // Leased to w, as a claim leaves them; then w's lease on t0 ran out and worker e claimed it.
  const rows = await h.database.db.selectFrom('documents').select(['id', 'path']).where('path', 'in', ['t0', 't1', 't2']).orderBy('path').execute();
  const ids = rows.map((row) => row.id);
  await h.database.db.updateTable('documents').set({ index_status: 'indexing', lease_owner: 'w', lease_expires_at: Date.now() + 60_000 }).where('id', 'in', ids).execute();
  await h.database.db.updateTable('documents').set({ lease_owner: 'e' }).where('id', '=', ids[0]!).execute();
  const { lost, finished } = await h.database.db.transaction().execute(async (trx) => ({
    lost: await h.engine.queue.lock(trx, 'w', ids),
    finished: await h.engine.queue.finish(trx, 'w', ids),
  }));
  expect([...lost]).toEqual([ids[0]]);
  expect([...finished].sort()).toEqual(ids.slice(1).sort());
  expect(await statusOf('t0')).toMatchObject({ index_status: 'indexing', lease_owner: 'e' });
  for (const path of ['t1', 't2']) expect(await statusOf(path)).toMatchObject({ index_status: 'indexed', lease_owner: null });
});
