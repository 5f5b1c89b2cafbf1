import { afterAll, beforeAll, expect, test } from 'vitest';
import { sql } from 'kysely';
import { claim, defaultLeaseRules } from '../src/engine/queue/document-states.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Claims keep their limits among thousands of rows: one large document in hand at once, a batch
 * within its bytes. The table is analyzed while every document in it is indexed, as Sift's idle
 * upkeep leaves it after an ingestion, and the waiting ones arrive after: from those statistics
 * PostgreSQL ran a pick written `seq in (select ... limit 1 for update skip locked)` again for each
 * row it joined, and this test's first claim leased all five large documents at once (a benchmark
 * leased seven 60 MB documents, 3.1 GB of RSS).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const f = await providerFixtures(h);
  await f.workers.stop(); // claims are made by hand here
  await h.call('/v1/collections/add-collection', { collection_name: 'many' }, f.keyA);
  const { id: collectionId, organization_id: organizationId } = await h.database.db
    .selectFrom('collections')
    .select(['id', 'organization_id'])
    .where('name', '=', 'many')
    .executeTakeFirstOrThrow();
  const row = (path: string, status: string, size: number, createdAt: string) => ({
    id: `id-${path}`,
    organization_id: organizationId,
    collection_id: collectionId,
    path,
    metadata: '{}',
    index_status: status,
    source_type: 'text',
    size,
    file_hash: 'none',
    attempts: 0,
    created_at: createdAt,
    updated_at: createdAt,
  });
  // 3,000 documents done with and analyzed, then five large ones and 100 small ones waiting, oldest first.
  const rows = [
    ...Array.from({ length: 3_000 }, (_, i) => row(`done/${i}`, 'indexed', 5_000, '2026-01-01T00:00:00.000Z')),
    ...Array.from({ length: 5 }, (_, i) => row(`large/${i}`, 'not_parsed', 60_000_000, `2026-01-02T00:00:0${i}.000Z`)),
    ...Array.from({ length: 100 }, (_, i) => row(`small/${i}`, 'not_parsed', 1_000_000, '2026-01-03T00:00:00.000Z')),
  ];
  for (let start = 0; start < 3000; start += 500) await h.database.db.insertInto('documents').values(rows.slice(start, start + 500) as never).execute();
  await sql`analyze documents`.execute(h.database.db);
  await h.database.db.insertInto('documents').values(rows.slice(3000) as never).execute();
});
afterAll(() => h.close());

const leased = async () => (await h.database.db.selectFrom('documents').select('path').where('lease_owner', 'is not', null).orderBy('path').execute()).map((row) => row.path);

test('a claim among thousands of documents leases one large document, then a batch within its limits, nothing more', async () => {
  const first = await claim(h.database, 'w1', defaultLeaseRules);
  expect(first.map((job) => job.path)).toEqual(['large/0']);
  expect(await leased()).toEqual(['large/0']);
  // One large document in hand already: the next claim takes small ones, at most 16 MB of them.
  const second = await claim(h.database, 'w2', defaultLeaseRules);
  expect(second.length).toBe(16);
  expect(second.every((job) => job.path.startsWith('small/'))).toBe(true);
  expect((await leased()).length).toBe(17);
});
