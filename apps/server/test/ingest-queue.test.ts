import { afterAll, beforeAll, expect, test } from 'vitest';
import { claim, defaultLeaseRules, MAX_ATTEMPTS, recoverAtStart, recoverExpired } from '../src/engine/queue/document-states.ts';
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
  const [a, b] = await Promise.all([claim(h.database, 'a', rules), claim(h.database, 'b', rules)]);
  const ids = [...a, ...b].map((job) => job.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(8);
  expect((await statusOf(a[0]!.path)).index_status).toBe('parsing');
});

test('documents of a batch whose worker died are claimed again one at a time; one that keeps dying fails with a reason', async () => {
  await expireLeases('a');
  expect(await recoverExpired(h.database)).toBe(4);
  const [job, ...others] = await claim(h.database, 'c', rules);
  expect(others).toEqual([]);
  // Two more deaths of the same document: it fails, and only it.
  for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
    await expireLeases('c');
    await recoverExpired(h.database);
    if (attempt < MAX_ATTEMPTS) expect((await claim(h.database, 'c', rules)).map((claimed) => claimed.id)).toEqual([job!.id]);
  }
  const failed = await statusOf(job!.path);
  expect(failed).toMatchObject({ index_status: 'parsing_failed', lease_owner: null });
  expect(failed.error).toMatch(/Gave up after 3 attempts/);
  // Its batch neighbours wait to be claimed alone too, and have not been charged for its deaths.
  const next = await claim(h.database, 'd', rules);
  expect(next.length).toBe(1);
  expect(next[0]!.attempts).toBe(2);
  // Leases still running are left alone, unless every lease is released (the SQLite server starting).
  expect(await recoverExpired(h.database)).toBe(0);
  if (h.database.dialect === 'sqlite') expect(await recoverAtStart(h.database)).toBe(5);
});
