import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BulkInserts } from '../src/db/bulk-insert.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { addCollection, requireCollection } from '../src/domain/collections.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('more rows than one statement holds: every row lands once, with its own values in its own columns', async () => {
  const { organizationId } = await bootstrap(h.database, h.keyring, { email: 'bulk@example.com', name: 'B', organizationName: 'Bulk' });
  await addCollection(h.database, h.engine, { organizationId }, { collection_name: 'c' });
  const { collectionId } = await requireCollection(h.database.db, organizationId, 'c');
  const documentId = randomUUID();
  const now = new Date().toISOString();
  const { seq: documentSeq } = await h.database.db
    .insertInto('documents')
    .values({ id: documentId, organization_id: organizationId, collection_id: collectionId, path: 'a.txt', metadata: '{}', index_status: 'indexed', source_type: 'text', size: 1, file_hash: 'h', created_at: now, updated_at: now, attempts: 0, text_bytes: 0 })
    .returning('seq')
    .executeTakeFirstOrThrow();
  const rows = Array.from({ length: 1234 }, (_, i) => ({
    document_seq: documentSeq,
    granularity: i % 2 === 0 ? ('fine' as const) : ('coarse' as const),
    start_index: i * 10,
    end_index: i * 10 + 7,
    page_start: i,
    page_end: i + 1,
  }));
  const statements = new BulkInserts(h.database.db).of('chunks', rows);
  expect(statements).toHaveLength(3); // 500 + 500 + 234
  await h.database.db.transaction().execute(async (trx) => {
    for (const statement of statements) await trx.executeQuery(statement);
  });
  const stored = await h.database.db.selectFrom('chunks').select(['granularity', 'start_index', 'end_index', 'page_start', 'page_end']).where('document_seq', '=', documentSeq).orderBy('start_index').execute();
  expect(stored.map((row) => ({ ...row, start_index: Number(row.start_index), end_index: Number(row.end_index), page_start: Number(row.page_start), page_end: Number(row.page_end) }))).toEqual(
    rows.map(({ granularity, start_index, end_index, page_start, page_end }) => ({ granularity, start_index, end_index, page_start, page_end })),
  );
});
