import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { foldDocumentUsage } from '../src/db/document-usage-pending.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// Deleting a collection goes a batch of documents at a time (domain/collections.ts), its requests
// served between batches: one statement for the whole collection held SQLite's write lock and the
// HTTP thread for as long as it took. Nothing of it may be left, and usage counts each document once.

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

const add = (collection: string, path: string, text: string) =>
  h.call('/v1/documents/add-document', { collection_name: collection, path, content: { type: 'text', text }, metadata: { n: path } }, f.keyA);

test('a collection of more documents and snippets than a batch goes whole, requests answered meanwhile', async () => {
  const { db } = h.database;
  await h.call('/v1/collections/add-collection', { collection_name: 'large' }, f.keyA);
  await h.call('/v1/collections/add-collection', { collection_name: 'beside' }, f.keyA);
  // More documents than one batch (256), and one with more snippets than one batch (2,000).
  for (let i = 0; i < 300; i++) expect((await add('large', `doc-${i}.txt`, `Lantern number ${i} burns in the harbour.`)).status).toBe(201);
  const sentence = 'The keeper trims the lantern wick before the tide turns. ';
  expect((await add('large', 'long.txt', sentence.repeat(12_000))).status).toBe(201);
  expect((await add('beside', 'kept.txt', 'A lantern kept in another collection.')).status).toBe(201);
  await f.workers.idle();
  const { id } = await db.selectFrom('collections').select('id').where('name', '=', 'large').executeTakeFirstOrThrow();
  const documents = await db.selectFrom('documents').select(['seq', 'file_hash']).where('collection_id', '=', id).execute();
  expect(documents).toHaveLength(301);
  const long = await db.selectFrom('chunks').innerJoin('documents', 'documents.seq', 'chunks.document_seq').select((eb) => eb.fn.countAll<number>().as('n')).where('documents.path', '=', 'long.txt').executeTakeFirstOrThrow();
  expect(Number(long.n)).toBeGreaterThan(2000);

  // Polled while it is deleted, the collection is seen shrinking: the deletion goes a batch at a
  // time, other requests answered between batches (in one transaction it went from 301 to gone).
  let deleting = true;
  const deleted = h.call('/v1/collections/delete-collection', { collection_name: 'large' }, f.keyA).finally(() => (deleting = false));
  const seen = new Set<number>();
  while (deleting) {
    const status = await h.call('/v1/status/get-status', { collection_name: 'large' }, f.keyA);
    if (status.status === 200) seen.add(status.body.num_documents);
  }
  expect((await deleted).status).toBe(200);
  expect([...seen].some((count) => count > 0 && count < 301)).toBe(true);
  const searched = await h.call('/v1/queries/top-snippets', { collection_name: 'beside', query: 'lantern', k: 5 }, f.keyA);
  expect(searched.body.results.map((result: { content: string }) => result.content)).toEqual(['A lantern kept in another collection.']);

  expect((await h.call('/v1/queries/top-snippets', { collection_name: 'large', query: 'lantern', k: 5 }, f.keyA)).status).toBe(404);
  for (const table of ['documents', 'pages', 'document_metadata'] as const) {
    const rows = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('collection_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(rows.n), table).toBe(0);
  }
  // Snippets name their document by seq.
  const snippets = await db.selectFrom('chunks').select((eb) => eb.fn.countAll<number>().as('n')).where('document_seq', 'in', documents.map((row) => row.seq)).executeTakeFirstOrThrow();
  expect(Number(snippets.n), 'chunks').toBe(0);
  if (h.database.dialect === 'postgres') {
    // Which postings blocks held each document (postgres.ts createPostingsTable).
    const { rows } = await sql<{ n: string }>`select count(*) as n from search_document_blocks where document_seq = any(${documents.map((row) => row.seq)}::bigint[])`.execute(db);
    expect(Number(rows[0]!.n), 'search_document_blocks').toBe(0);
  }
  for (const { file_hash } of documents) await expect(h.files.read(file_hash)).rejects.toThrow();
  await foldDocumentUsage(db);
  const usage = await db
    .selectFrom('document_usage')
    .select((eb) => eb.fn.sum<number>('event_count').as('n'))
    .where('collection_id', '=', id)
    .where('event_type', '=', 'deleted')
    .executeTakeFirstOrThrow();
  expect(Number(usage.n)).toBe(301);
  // The other collection is untouched, and the name can be used again at once.
  expect((await h.call('/v1/status/get-status', { collection_name: 'beside' }, f.keyA)).body).toMatchObject({ num_documents: 1, num_indexed_documents: 1 });
  expect((await h.call('/v1/collections/add-collection', { collection_name: 'large' }, f.keyA)).status).toBe(201);
}, 60_000);

test('a document of more snippets than a batch is deleted with all of them, its neighbours kept', async () => {
  const { db } = h.database;
  await h.call('/v1/collections/add-collection', { collection_name: 'pair' }, f.keyA);
  expect((await add('pair', 'long.txt', 'The keeper trims the lantern wick before the tide turns. '.repeat(12_000))).status).toBe(201);
  expect((await add('pair', 'short.txt', 'A short lantern note.')).status).toBe(201);
  await f.workers.idle();
  const snippetsOf = async (path: string) =>
    Number(
      (
        await db
          .selectFrom('chunks')
          .innerJoin('documents', 'documents.seq', 'chunks.document_seq')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('documents.path', '=', path)
          .executeTakeFirstOrThrow()
      ).n,
    );
  expect(await snippetsOf('long.txt')).toBeGreaterThan(2000);
  const deleted = await h.call('/v1/documents/delete-document', { collection_name: 'pair', path: ['long.txt', 'missing.txt'] }, f.keyA);
  expect(deleted.body).toEqual({ deleted_paths: ['long.txt'] });
  const { id } = await db.selectFrom('collections').select('id').where('name', '=', 'pair').executeTakeFirstOrThrow();
  const left = await db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.seq', 'chunks.document_seq')
    .select('chunks.document_seq')
    .distinct()
    .where('documents.collection_id', '=', id)
    .execute();
  expect(left).toHaveLength(1);
  expect(await snippetsOf('short.txt')).toBeGreaterThan(0);
  const found = await h.call('/v1/queries/top-snippets', { collection_name: 'pair', query: 'lantern', k: 5, precise_responses: true }, f.keyA);
  expect(found.body.results.map((result: { path: string }) => result.path)).toEqual(['short.txt']);
}, 60_000);
