import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** The `reranker` option of top-documents and top-snippets with the built-in models (no provider configured). */
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
/** Reranker calls Sift made on the client's behalf (explicit_call 0), all organizations. */
async function rerankerCalls(): Promise<number> {
  const rows = await h.database.db.selectFrom('reranker_usage').select(['event_count', 'explicit_call']).execute();
  return rows.filter((row) => Number(row.explicit_call) === 0).reduce((sum, row) => sum + Number(row.event_count), 0);
}
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

test('without a configured model, top-documents with a reranker keeps the index order and scores, and counts the call', async () => {
  const query = 'automatic indexing of article titles';
  const plain = await h.call(v1('/queries/top-documents'), { collection_name: c, query, k: 3 }, f.keyA);
  expect(plain.status).toBe(200);
  const before = await rerankerCalls();
  const reranked = await h.call(v1('/queries/top-documents'), { collection_name: c, query, k: 3, reranker: 'zerank-2' }, f.keyA);
  expect(reranked.status).toBe(200);
  expect(reranked.body.results).toEqual(plain.body.results);
  expect(await rerankerCalls()).toBe(before + 1);
});

test('without a configured model, top-snippets with a reranker keeps the index order and scores', async () => {
  const query = 'automatic indexing';
  const plain = await h.call(v1('/queries/top-snippets'), { collection_name: c, query, k: 3 }, f.keyA);
  const reranked = await h.call(v1('/queries/top-snippets'), { collection_name: c, query, k: 3, reranker: 'zerank-2' }, f.keyA);
  expect(reranked.status).toBe(200);
  expect(reranked.body.results).toEqual(plain.body.results);
});

test('an unknown reranker is refused with 404 naming the models that exist', async () => {
  const refused = await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'titles', k: 3, reranker: 'no-such-model' }, f.keyA);
  expect(refused.status).toBe(404);
  expect(refused.body.detail).toContain('zerank-2');
});
