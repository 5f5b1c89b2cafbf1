import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { addCollection, requireCollection } from '../src/domain/collections.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function collectionOf(name: string) {
  const { organizationId } = await bootstrap(h.database, h.keyring, { email: `${name}@example.com`, name, organizationName: name });
  await addCollection(h.database, h.engine, { organizationId }, { collection_name: 'c' });
  return requireCollection(h.database.db, organizationId, 'c');
}

const rowsOf = (organizationId: string) =>
  h.database.db.selectFrom('query_usage').selectAll().where('organization_id', '=', organizationId).orderBy('query_type').execute();

const counters = { queryBytes: 5, queriedBytes: 100, queryTokens: 2, results: 3, timeMs: 1.4 };

test('queries of one minute and kind add up into one row once flushed', async () => {
  const collection = await collectionOf('adds');
  h.context.queryUsage.record(collection, 'coarse', counters);
  h.context.queryUsage.record(collection, 'coarse', counters);
  h.context.queryUsage.record(collection, 'pages', counters);
  expect(await rowsOf(collection.organizationId)).toHaveLength(0);
  await h.context.queryUsage.flush();
  const rows = await rowsOf(collection.organizationId);
  expect(rows.map((row) => [row.query_type, Number(row.event_count), Number(row.total_queried_bytes), Number(row.total_results_returned)])).toEqual([
    ['coarse', 2, 200, 6],
    ['pages', 1, 100, 3],
  ]);
});

test('pending events are written within about a second without any read', async () => {
  const collection = await collectionOf('timer');
  h.context.queryUsage.record(collection, 'documents', counters);
  await expect.poll(async () => (await rowsOf(collection.organizationId)).length, { timeout: 3000 }).toBe(1);
});

test('an organization deleted before the flush loses its events; the others are still written', async () => {
  const gone = await collectionOf('gone');
  const kept = await collectionOf('kept');
  h.context.queryUsage.record(gone, 'fine', counters);
  h.context.queryUsage.record(kept, 'fine', counters);
  await h.database.db.deleteFrom('organizations').where('id', '=', gone.organizationId).execute();
  await h.context.queryUsage.flush();
  expect(await rowsOf(gone.organizationId)).toHaveLength(0);
  expect(await rowsOf(kept.organizationId)).toHaveLength(1);
});

test('events whose write failed are kept and written by the next flush', async () => {
  const collection = await collectionOf('retry');
  h.context.queryUsage.record(collection, 'pages', counters);
  const refusal = vi.spyOn(h.database.db, 'transaction').mockImplementationOnce(() => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  });
  await h.context.queryUsage.flush();
  expect(await rowsOf(collection.organizationId)).toHaveLength(0);
  h.context.queryUsage.record(collection, 'pages', counters);
  await h.context.queryUsage.flush();
  refusal.mockRestore();
  const [row] = await rowsOf(collection.organizationId);
  expect(Number(row!.event_count)).toBe(2);
});
