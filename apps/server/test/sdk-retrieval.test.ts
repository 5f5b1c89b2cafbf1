import ZeroEntropy, { AuthenticationError, ConflictError, NotFoundError, PermissionDeniedError, UnprocessableEntityError } from 'zeroentropy';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * The official `zeroentropy` SDK against a listening server, changing nothing but baseURL:
 * every status, collection, document and query method, auto-paging, and the error classes.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
let client: ZeroEntropy;
let baseURL: string;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  baseURL = `${await h.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
  client = new ZeroEntropy({ apiKey: f.keyA, baseURL, maxRetries: 0 });
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

test('collections: add, list, delete, and ConflictError / NotFoundError', async () => {
  const added = await client.collections.add({ collection_name: 'sdk' });
  expect(added.message).toBe('Success!');
  await expect(client.collections.add({ collection_name: 'sdk' })).rejects.toBeInstanceOf(ConflictError);
  const list = await client.collections.getList();
  expect(list.collection_names).toContain('sdk');
  await client.collections.add({ collection_name: 'sdk-temporary' });
  await client.collections.delete({ collection_name: 'sdk-temporary' });
  await expect(client.collections.delete({ collection_name: 'sdk-temporary' })).rejects.toBeInstanceOf(NotFoundError);
});

test('documents: add every content type, status, info, page info, update, delete', async () => {
  await client.documents.add({ collection_name: 'sdk', path: 'a/one.txt', content: { type: 'text', text: 'The lighthouse keeper watched the stormy sea.' }, metadata: { author: 'ann' } });
  await client.documents.add({ collection_name: 'sdk', path: 'a/two.txt', content: { type: 'text-pages', pages: ['Page one about gardens.', 'Page two about roses.'] } });
  await client.documents.add({ collection_name: 'sdk', path: 'a/three.txt', content: { type: 'text-pages-unordered', pages: ['row,a', 'row,b'] } });
  await client.documents.add({ collection_name: 'sdk', path: 'b/four.md', content: { type: 'auto', base64_data: Buffer.from('# Harbour\n\nBoats in the harbour at dawn.').toString('base64') } });
  await expect(
    client.documents.add({ collection_name: 'sdk', path: 'a/one.txt', content: { type: 'text', text: 'again' } }),
  ).rejects.toBeInstanceOf(ConflictError);
  await client.documents.add({ collection_name: 'sdk', path: 'a/one.txt', content: { type: 'text', text: 'The lighthouse keeper watched the stormy sea at night.' }, metadata: { author: 'ann' }, overwrite: true });
  await f.workers.idle();

  const status = await client.status.getStatus({ collection_name: 'sdk' });
  expect(status).toMatchObject({ num_documents: 4, num_indexed_documents: 4, num_failed_documents: 0 });
  const everything = await client.status.getStatus();
  expect(everything.num_documents).toBeGreaterThanOrEqual(4);

  const info = await client.documents.getInfo({ collection_name: 'sdk', path: 'a/one.txt', include_content: true });
  expect(info.document).toMatchObject({ path: 'a/one.txt', index_status: 'indexed', metadata: { author: 'ann' }, num_pages: 1 });
  expect(info.document.content).toContain('at night');
  const file = await fetch(info.document.file_url);
  expect(await file.text()).toContain('lighthouse keeper');

  const page = await client.documents.getPageInfo({ collection_name: 'sdk', path: 'a/two.txt', page_index: 1, include_content: true });
  expect(page.page.content).toBe('Page two about roses.');
  await expect(client.documents.getPageInfo({ collection_name: 'sdk', path: 'a/two.txt', page_index: 9 })).rejects.toBeInstanceOf(NotFoundError);

  await client.documents.update({ collection_name: 'sdk', path: 'a/two.txt', metadata: { topic: 'garden' } });
  await f.workers.idle();
  const updated = await client.documents.getInfo({ collection_name: 'sdk', path: 'a/two.txt' });
  expect(updated.document).toMatchObject({ metadata: { topic: 'garden' }, index_status: 'indexed' });

  const deleted = await client.documents.delete({ collection_name: 'sdk', path: ['a/three.txt', 'missing.txt'] });
  expect(deleted.deleted_paths).toEqual(['a/three.txt']);
  await expect(client.documents.getInfo({ collection_name: 'sdk', path: 'a/three.txt' })).rejects.toBeInstanceOf(NotFoundError);
});

/*
 * zeroentropy 0.1.0-alpha.10 puts the next cursor (`path_gt`) only into the query string, and only
 * when the call has a `query` request option; without one, `for await` sends the first page's body
 * again and again. The server reads the cursor from the query string, so `{ query: {} }` pages.
 */
test('getInfoList pages through every document with for await, in path order', async () => {
  await client.collections.add({ collection_name: 'paged' });
  const paths = Array.from({ length: 23 }, (_, i) => `doc-${String(i).padStart(2, '0')}`);
  for (const path of paths) await client.documents.add({ collection_name: 'paged', path, content: { type: 'text', text: `document ${path}` } });
  const seen: string[] = [];
  for await (const document of client.documents.getInfoList({ collection_name: 'paged', limit: 5 }, { query: {} })) seen.push(document.path);
  expect(seen).toEqual(paths);
  const firstPage = await client.documents.getInfoList({ collection_name: 'paged', limit: 5, path_prefix: 'doc-1' });
  expect(firstPage.documents.map((document) => document.path)).toEqual(paths.slice(10, 15));
});

test('queries: top-documents, top-pages and top-snippets with filters and options', async () => {
  const documents = await client.queries.topDocuments({ collection_name: 'sdk', query: 'lighthouse sea', k: 3, include_metadata: true, latency_mode: 'low' });
  expect(documents.results[0]).toMatchObject({ path: 'a/one.txt', metadata: { author: 'ann' } });
  expect(documents.results[0]!.score).toBeGreaterThan(0);
  const filtered = await client.queries.topDocuments({ collection_name: 'sdk', query: 'lighthouse', k: 3, filter: { author: { $ne: 'ann' } } });
  expect(filtered.results).toEqual([]);

  const pages = await client.queries.topPages({ collection_name: 'sdk', query: 'roses', k: 2, include_content: true });
  expect(pages.results[0]).toMatchObject({ path: 'a/two.txt', page_index: 1, content: 'Page two about roses.' });

  const coarse = await client.queries.topSnippets({ collection_name: 'sdk', query: 'harbour boats', k: 2 });
  expect(coarse.results[0]!.path).toBe('b/four.md');
  const precise = await client.queries.topSnippets({ collection_name: 'sdk', query: 'harbour boats', k: 2, precise_responses: true, include_document_metadata: true });
  expect(precise.results[0]!.page_span).toEqual([0, 1]);
  expect(precise.document_results[0]!.path).toBe('b/four.md');
});

test('errors: wrong key 401, read_only key 403 on writes, invalid body 422, unknown collection 404', async () => {
  const stranger = new ZeroEntropy({ apiKey: 'sift_not_a_key', baseURL, maxRetries: 0 });
  await expect(stranger.collections.getList()).rejects.toBeInstanceOf(AuthenticationError);
  const reader = new ZeroEntropy({ apiKey: f.readOnlyA, baseURL, maxRetries: 0 });
  expect((await reader.collections.getList()).collection_names).toContain('sdk');
  await expect(reader.collections.add({ collection_name: 'nope' })).rejects.toBeInstanceOf(PermissionDeniedError);
  await expect(reader.documents.add({ collection_name: 'sdk', path: 'x', content: { type: 'text', text: 'x' } })).rejects.toBeInstanceOf(PermissionDeniedError);
  await expect(reader.documents.update({ collection_name: 'sdk', path: 'a/one.txt', metadata: {} })).rejects.toBeInstanceOf(PermissionDeniedError);
  await expect(reader.documents.delete({ collection_name: 'sdk', path: 'a/one.txt' })).rejects.toBeInstanceOf(PermissionDeniedError);
  await expect(reader.collections.delete({ collection_name: 'sdk' })).rejects.toBeInstanceOf(PermissionDeniedError);
  await expect(client.queries.topSnippets({ collection_name: 'sdk', query: 'x', k: 500 })).rejects.toBeInstanceOf(UnprocessableEntityError);
  await expect(client.queries.topSnippets({ collection_name: 'no-such-collection', query: 'x', k: 5 })).rejects.toBeInstanceOf(NotFoundError);
  const other = new ZeroEntropy({ apiKey: f.keyB, baseURL, maxRetries: 0 });
  await expect(other.documents.getInfo({ collection_name: 'sdk', path: 'a/one.txt' })).rejects.toBeInstanceOf(NotFoundError);
});
