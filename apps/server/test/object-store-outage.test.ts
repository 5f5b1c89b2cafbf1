import { afterAll, beforeAll, expect, test } from 'vitest';
import { startObjectStore } from './cluster.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * The object store goes away while ingestion runs over a backlog (s3rver stopped, then started
 * again on the same port and folder): documents wait in the queue, uncharged, none fails for it,
 * and once the store is back every acknowledged document ends indexed with no one's help.
 */
let s3: Awaited<ReturnType<typeof startObjectStore>>;
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;

beforeAll(async () => {
  s3 = await startObjectStore();
  h = await startHarness(s3.env);
  f = await providerFixtures(h);
});
afterAll(async () => {
  await f?.workers.stop();
  await h?.close();
  await s3?.close();
});

const statuses = async () => {
  const rows = await h.database.db.selectFrom('documents').select(['index_status', 'attempts', 'error']).execute();
  return rows;
};

test('an object store outage during ingestion fails no document, and the backlog drains once it is back', { timeout: 120_000 }, async () => {
  await f.workers.stop(); // started below, once the backlog is queued
  await h.call('/v1/collections/add-collection', { collection_name: 'outage' }, f.keyA);
  const count = 120;
  for (let i = 0; i < count; i++) {
    const added = await h.call('/v1/documents/add-document', { collection_name: 'outage', path: `d${i}.txt`, content: { type: 'text', text: `Petrel ${i} skims the waves far from land.` } }, f.keyA);
    expect(added.status).toBe(201);
  }
  // The store goes away with the whole backlog waiting, and ingestion starts meanwhile.
  await s3.stop();
  const workers = await h.engine.startIngestion({ concurrency: 2, idlePollMs: 50, leases: { batchSize: 4 } });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const during = await statuses();
    expect(during.filter((row) => row.index_status.endsWith('failed'))).toEqual([]);
    expect(during.filter((row) => row.index_status === 'indexed')).toEqual([]);
    // Those handed back wait uncharged: none counts an attempt against it.
    expect(during.filter((row) => row.index_status === 'not_parsed' && row.attempts > 0)).toEqual([]);

    await s3.restart();
    await workers.idle();
    const after = await statuses();
    expect(after.filter((row) => row.index_status !== 'indexed')).toEqual([]);
    expect(after).toHaveLength(count);
  } finally {
    await workers.stop();
  }
  const found = await h.call('/v1/queries/top-documents', { collection_name: 'outage', query: 'petrel 119', k: 1 }, f.keyA);
  expect(found.body.results[0].path).toBe('d119.txt');
});
