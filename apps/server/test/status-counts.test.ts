import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { statusCountsQuery } from '../src/engine/queue/document-queue.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// get-status is what clients poll while they upload: its counts come from the status indexes
// alone (migration 015), never from reading every document (SQLite keeps a document's text inline).

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

test('get-status counts documents and indexed bytes by status, per collection and per organization', async () => {
  await h.call('/v1/collections/add-collection', { collection_name: 'counted' }, f.keyA);
  await h.call('/v1/collections/add-collection', { collection_name: 'other' }, f.keyA);
  for (const [collection, path, text] of [
    ['counted', 'a.txt', 'héllo'],
    ['counted', 'b.txt', 'world'],
    ['other', 'c.txt', 'more words'],
  ]) {
    const added = await h.call('/v1/documents/add-document', { collection_name: collection, path, content: { type: 'text', text }, metadata: {} }, f.keyA);
    expect(added.status).toBe(201);
  }
  await f.workers.idle();
  const counted = await h.call('/v1/status/get-status', { collection_name: 'counted' }, f.keyA);
  expect(counted.body).toEqual({
    num_documents: 2,
    num_parsing_documents: 0,
    num_indexing_documents: 0,
    num_indexed_documents: 2,
    num_failed_documents: 0,
    num_indexed_bytes: Buffer.byteLength('héllo') + Buffer.byteLength('world'),
  });
  const organization = await h.call('/v1/status/get-status', {}, f.keyA);
  expect(organization.body).toMatchObject({ num_documents: 3, num_indexed_documents: 3, num_indexed_bytes: 6 + 5 + 10 });
});

test.runIf(!process.env.SIFT_TEST_DIALECT || process.env.SIFT_TEST_DIALECT === 'sqlite')('SQLite reads the counts from an index, not the documents table', async () => {
  const { db } = h.database;
  const explain = async (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
    const { sql, parameters } = query.compile();
    const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${sql}`, [...parameters]));
    return rows.map((row) => row.detail).join('\n');
  };
  expect(await explain(statusCountsQuery(db, { collectionId: 'c' }))).toMatch(/USING COVERING INDEX documents_collection_status/);
  expect(await explain(statusCountsQuery(db, { organizationId: 'o' }))).toMatch(/USING COVERING INDEX documents_org_status/);
});
