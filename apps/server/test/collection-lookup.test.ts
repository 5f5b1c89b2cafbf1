import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// Queries remember the collection a name stands for a moment (domain/collections.ts); deleting it
// or adding it again must show at once in the next query.

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

const add = (text: string) =>
  h.call('/v1/documents/add-document', { collection_name: 'again', path: 'a.txt', content: { type: 'text', text }, metadata: {} }, f.keyA);
const search = () => h.call('/v1/queries/top-snippets', { collection_name: 'again', query: 'lantern', k: 5 }, f.keyA);

test('a collection deleted answers 404 with the next query; added again, its new documents are found', async () => {
  await h.call('/v1/collections/add-collection', { collection_name: 'again' }, f.keyA);
  await add('The old lantern.');
  await f.workers.idle();
  expect((await search()).body.results.map((r: { content: string }) => r.content)).toEqual(['The old lantern.']);
  expect((await h.call('/v1/collections/delete-collection', { collection_name: 'again' }, f.keyA)).status).toBe(200);
  expect((await search()).status).toBe(404);
  await h.call('/v1/collections/add-collection', { collection_name: 'again' }, f.keyA);
  expect((await search()).body.results).toEqual([]);
  await add('The new lantern.');
  await f.workers.idle();
  expect((await search()).body.results.map((r: { content: string }) => r.content)).toEqual(['The new lantern.']);
  // Another organization's collection of the same name is another collection.
  expect((await h.call('/v1/queries/top-snippets', { collection_name: 'again', query: 'lantern', k: 5 }, f.keyB)).status).toBe(404);
});
