import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** The `reranker` option of top-documents and top-snippets: the retrieved hits, scored again by that model. */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const v1 = (path: string) => `/v1${path}`;
const c = 'reranked';
const texts: Record<string, string> = {
  'a.txt': 'Titles of articles. How titles are chosen, and whether titles describe articles well.',
  'b.txt': 'Indexing of articles by automatic methods, with a note on titles.',
  'c.txt': 'Automatic indexing, automatic abstracting and automatic classification of articles in chemistry.',
};
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call(v1('/collections/add-collection'), { collection_name: c }, f.keyA);
  for (const [path, text] of Object.entries(texts)) await h.call(v1('/documents/add-document'), { collection_name: c, path, content: { type: 'text', text } }, f.keyA);
  await f.workers.idle();
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

test('top-documents with a reranker returns the retrieved documents in the order and with the scores of /models/rerank', async () => {
  const query = 'automatic indexing of article titles';
  const plain = await h.call(v1('/queries/top-documents'), { collection_name: c, query, k: 3 }, f.keyA);
  expect(plain.status).toBe(200);
  const reranked = await h.call(v1('/queries/top-documents'), { collection_name: c, query, k: 3, reranker: 'zerank-2' }, f.keyA);
  expect(reranked.status).toBe(200);
  const paths: string[] = plain.body.results.map((r: { path: string }) => r.path);
  const model = await h.call(v1('/models/rerank'), { model: 'zerank-2', query, documents: paths.map((path) => texts[path]) }, f.keyA);
  expect(reranked.body.results.map((r: { path: string; score: number }) => [r.path, r.score])).toEqual(
    model.body.results.map((r: { index: number; relevance_score: number }) => [paths[r.index], r.relevance_score]),
  );
});

test('top-snippets with a reranker scores the snippets with that model', async () => {
  const query = 'automatic indexing';
  const reranked = await h.call(v1('/queries/top-snippets'), { collection_name: c, query, k: 3, reranker: 'zerank-2' }, f.keyA);
  expect(reranked.status).toBe(200);
  const contents: string[] = reranked.body.results.map((r: { content: string }) => r.content);
  const model = await h.call(v1('/models/rerank'), { model: 'zerank-2', query, documents: contents }, f.keyA);
  expect(reranked.body.results.map((r: { score: number }) => r.score)).toEqual(contents.map((_, i) => model.body.results.find((m: { index: number }) => m.index === i).relevance_score));
});

test('an unknown reranker is refused with 404 naming the models that exist', async () => {
  const refused = await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'titles', k: 3, reranker: 'no-such-model' }, f.keyA);
  expect(refused.status).toBe(404);
  expect(refused.body.detail).toContain('zerank-2');
});
