import { expect, test } from 'vitest';
import { fileHarness } from './support/file-harness.ts';

/**
 * The object store goes away while ingestion runs over a backlog (s3rver stopped, then started
 * again on the same port and folder): documents wait in the queue, uncharged, none fails for it,
 * and once the store is back every acknowledged document ends indexed with no one's help.
 */
const t = fileHarness({ objectStore: true });

const statuses = async () => {
  const rows = await t.h.database.db.selectFrom('documents').select(['index_status', 'attempts', 'error']).execute();
  return rows;
};

test('an object store outage during ingestion fails no document, and the backlog drains once it is back', { timeout: 120_000 }, async () => {
  await t.f.workers.stop(); // started below, once the backlog is queued
  await t.h.call('/v1/collections/add-collection', { collection_name: 'outage' }, t.f.keyA);
  const count = 120;
  for (let i = 0; i < count; i++) {
    const added = await t.h.call('/v1/documents/add-document', { collection_name: 'outage', path: `d${i}.txt`, content: { type: 'text', text: `Petrel ${i} skims the waves far from land.` } }, t.f.keyA);
    expect(added.status).toBe(201);
  }
  // The store goes away with the whole backlog waiting, and ingestion starts meanwhile.
  await t.s3.stop();
  const workers = await t.h.engine.startIngestion({ concurrency: 2, idlePollMs: 50, leases: { batchSize: 4 } });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const during = await statuses();
    expect(during.filter((row) => row.index_status.endsWith('failed'))).toEqual([]);
    expect(during.filter((row) => row.index_status === 'indexed')).toEqual([]);
    // Those handed back wait uncharged: none counts an attempt against it.
    expect(during.filter((row) => row.index_status === 'not_parsed' && row.attempts > 0)).toEqual([]);

    await t.s3.restart();
    await workers.idle();
    const after = await statuses();
    expect(after.filter((row) => row.index_status !== 'indexed')).toEqual([]);
    expect(after).toHaveLength(count);
  } finally {
    await workers.stop();
  }
  const found = await t.h.call('/v1/queries/top-documents', { collection_name: 'outage', query: 'petrel 119', k: 1 }, t.f.keyA);
  expect(found.body.results[0].path).toBe('d119.txt');
});
