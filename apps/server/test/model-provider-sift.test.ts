import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * SIFT_*_PROVIDER=zeroentropy with a second Sift as the provider of the first: the first serves
 * /v1/models/* and reranks its queries through the second's /v1/models/*, and the second counts
 * those calls in its usage, under the key the first was given.
 */
let provider: Harness;
let providerOrganization: string;
let sift: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const texts: Record<string, string> = {
  'a.txt': 'Titles of articles. How titles are chosen, and whether titles describe articles well.',
  'b.txt': 'Indexing of articles by automatic methods, with a note on titles.',
  'c.txt': 'Automatic indexing, automatic abstracting and automatic classification of articles in chemistry.',
};

beforeAll(async () => {
  provider = await startHarness();
  const account = await bootstrap(provider.database, provider.keyring, { email: 'provider@example.com', name: 'Provider', organizationName: 'Provider' });
  providerOrganization = account.organizationId;
  const address = await provider.app.listen({ port: 0, host: '127.0.0.1' });
  const remote = { URL: `${address}/v1`, API_KEY: account.apiKey };
  sift = await startHarness({
    SIFT_EMBEDDING_PROVIDER: 'zeroentropy',
    SIFT_EMBEDDING_URL: remote.URL,
    SIFT_EMBEDDING_API_KEY: remote.API_KEY,
    SIFT_RERANK_PROVIDER: 'zeroentropy',
    SIFT_RERANK_URL: remote.URL,
    SIFT_RERANK_API_KEY: remote.API_KEY,
  });
  f = await providerFixtures(sift);
  await sift.call('/v1/collections/add-collection', { collection_name: 'c' }, f.keyA);
  for (const [path, text] of Object.entries(texts)) await sift.call('/v1/documents/add-document', { collection_name: 'c', path, content: { type: 'text', text } }, f.keyA);
  await f.workers.idle();
});
afterAll(async () => {
  await f.workers.stop();
  await sift.close();
  await provider.close();
});

const usage = async (table: 'reranker_usage' | 'embed_usage') => {
  const rows = await provider.database.db.selectFrom(table).selectAll().where('organization_id', '=', providerOrganization).execute();
  return rows.reduce((sum, row) => sum + Number(row.event_count), 0);
};

test("/v1/models/embed answers the provider's vectors, and the provider counts the call", async () => {
  const body = { model: 'zembed-1', input_type: 'query', input: ['automatic indexing', 'titles'], encoding_format: 'float', dimensions: 80 };
  const before = await usage('embed_usage');
  const mine = await sift.call('/v1/models/embed', body, f.keyA);
  expect(mine.status).toBe(200);
  const theirs = await provider.call('/v1/models/embed', body, await providerKey());
  expect(mine.body.results).toHaveLength(2);
  mine.body.results.forEach((result: { embedding: number[] }, i: number) => {
    expect(result.embedding).toHaveLength(80);
    result.embedding.forEach((x, j) => expect(x).toBeCloseTo(theirs.body.results[i].embedding[j], 6));
  });
  expect(await usage('embed_usage')).toBe(before + 2);
});

test("the queries' reranker option reranks through the provider: its order and scores, its usage counted", async () => {
  const query = 'automatic indexing of article titles';
  const before = await usage('reranker_usage');
  const reranked = await sift.call('/v1/queries/top-documents', { collection_name: 'c', query, k: 3, reranker: 'zerank-2' }, f.keyA);
  expect(reranked.status).toBe(200);
  expect(await usage('reranker_usage')).toBe(before + 1);
  const paths = Object.keys(texts);
  const direct = await provider.call('/v1/models/rerank', { model: 'zerank-2', query, documents: paths.map((path) => texts[path]) }, await providerKey());
  expect(reranked.body.results.map((r: { path: string; score: number }) => [r.path, r.score])).toEqual(
    direct.body.results.map((r: { index: number; relevance_score: number }) => [paths[r.index], r.relevance_score]),
  );
});

test('/v1/models/rerank answers the scores of the provider', async () => {
  const body = { model: 'zerank-1', query: 'automatic indexing', documents: Object.values(texts), top_n: 2 };
  const mine = await sift.call('/v1/models/rerank', body, f.keyA);
  const theirs = await provider.call('/v1/models/rerank', body, await providerKey());
  expect(mine.status).toBe(200);
  expect(mine.body.results).toEqual(theirs.body.results);
});

/** The key the first Sift was given (its configuration holds it). */
async function providerKey(): Promise<string> {
  return sift.config.models.rerank!.apiKey!;
}
