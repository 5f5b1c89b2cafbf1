import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { foldDocumentUsage } from '../src/db/document-usage-pending.ts';
import { addDocumentEvent } from '../src/domain/usage-events.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// PostgreSQL: document usage events are appended in their action's transaction and added into
// the minute's row later (migration 016), so uploads to one collection never wait on that row.

const postgres = process.env.SIFT_TEST_DIALECT === 'postgres' && !!process.env.TEST_POSTGRES_URL;
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

test.runIf(postgres)('an event never waits for another open transaction counting the same minute, and folds count each once', async () => {
  const { db } = h.database;
  const collection = { organizationId: f.organizationA, collectionId: 'pending-c', collectionName: 'pending' };
  await db.transaction().execute(async (first) => {
    await addDocumentEvent(first, collection, 'added', { fileBytes: 1 });
    // With the first still open: waiting for its row would fail at once.
    await db.transaction().execute(async (second) => {
      await sql`set local lock_timeout = '100ms'`.execute(second);
      await addDocumentEvent(second, collection, 'added', { fileBytes: 2 });
    });
  });
  await Promise.all([foldDocumentUsage(db), foldDocumentUsage(db), foldDocumentUsage(db)]);
  const rows = await db.selectFrom('document_usage').select(['event_count', 'total_file_size_bytes']).where('collection_id', '=', 'pending-c').execute();
  expect(rows.map((row) => [Number(row.event_count), Number(row.total_file_size_bytes)])).toEqual([[2, 3]]);
  expect(await db.selectFrom('document_usage_pending').selectAll().where('collection_id', '=', 'pending-c').execute()).toEqual([]);
  // Usage reads fold first: an event just added is counted.
  await db.transaction().execute((trx) => addDocumentEvent(trx, collection, 'added', { fileBytes: 4 }));
  const counters = await h.call('/v1/usage/counters', {}, f.keyA);
  expect(counters.status).toBe(200);
  expect(counters.body.all_time.docs.bytes).toBeGreaterThanOrEqual(7);
});
