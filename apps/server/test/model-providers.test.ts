import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type Harness, startHarness } from './harness.ts';
import { type StandIn, startStandIn, toyScore, toyVector, unit } from './model-standins.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * SIFT_EMBEDDING_PROVIDER / SIFT_RERANK_PROVIDER = openai, tei, cohere, ollama: /v1/models/* and
 * the queries' `reranker` option answer through a protocol stand-in of each API (model-standins.ts).
 */
let standIn: StandIn;
const servers: Harness[] = [];

beforeAll(async () => {
  standIn = await startStandIn();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await standIn.close();
});

/** A server configured with `env`, and an organization's API key on it. */
async function serverWith(env: Record<string, string>) {
  const h = await startHarness(env);
  servers.push(h);
  const { apiKey } = await bootstrap(h.database, h.keyring, { email: 'models@example.com', name: 'Models', organizationName: 'Models' });
  return { h, apiKey };
}

const callsTo = (path: string) => standIn.calls.filter((call) => call.path === path);
const embedBody = (input: string[], extra: Record<string, unknown> = {}) => ({ model: 'zembed-1', input_type: 'document', input, encoding_format: 'float', ...extra });
const expectVectors = (embeddings: number[][], texts: string[]) =>
  embeddings.forEach((embedding, i) => unit(toyVector(texts[i]!)).forEach((x, j) => expect(embedding[j]).toBeCloseTo(x, 6)));

describe('embedding providers', () => {
  test('openai: /v1/embeddings with the model and key, vectors placed by index, usage counted under zembed-1', async () => {
    const { h, apiKey } = await serverWith({ SIFT_EMBEDDING_PROVIDER: 'openai', SIFT_EMBEDDING_URL: `${standIn.url}/v1`, SIFT_EMBEDDING_MODEL: 'text-embedding-3-small', SIFT_EMBEDDING_API_KEY: 'sk-test' });
    const texts = ['alpha', 'a much longer text, with every vowel: a e i o u', 'beta'];
    const response = await h.call('/v1/models/embed', embedBody(texts), apiKey);
    expect(response.status).toBe(200);
    expectVectors(response.body.results.map((r: { embedding: number[] }) => r.embedding), texts);
    const call = callsTo('/v1/embeddings').at(-1)!;
    expect(call.authorization).toBe('Bearer sk-test');
    expect(call.body).toMatchObject({ model: 'text-embedding-3-small', input: texts });
    const usage = await h.database.db.selectFrom('embed_usage').selectAll().execute();
    expect(usage.map((row) => [row.embedding_model, Number(row.event_count)])).toEqual([['zembed-1', 1]]);
    // A requested size is passed on; a size the model does not give is refused, not answered wrong.
    expect((await h.call('/v1/models/embed', embedBody(['x'], { dimensions: 5 }), apiKey)).status).toBe(200);
    expect(callsTo('/v1/embeddings').at(-1)!.body.dimensions).toBe(5);
    const wrongSize = await h.call('/v1/models/embed', embedBody(['x'], { dimensions: 80 }), apiKey);
    expect(wrongSize.status).toBe(422);
  });

  test('tei: /embed in batches of 32, answers in input order', async () => {
    const { h, apiKey } = await serverWith({ SIFT_EMBEDDING_PROVIDER: 'tei', SIFT_EMBEDDING_URL: standIn.url });
    const before = callsTo('/embed').length;
    const texts = Array.from({ length: 40 }, (_, i) => `text ${'a'.repeat(i)} ${'o'.repeat(40 - i)}`);
    const response = await h.call('/v1/models/embed', embedBody(texts), apiKey);
    expect(response.status).toBe(200);
    expectVectors(response.body.results.map((r: { embedding: number[] }) => r.embedding), texts);
    expect(callsTo('/embed').slice(before).map((call) => (call.body.inputs as string[]).length)).toEqual([32, 8]);
  });

  test('ollama: /api/embed with the model', async () => {
    const { h, apiKey } = await serverWith({ SIFT_EMBEDDING_PROVIDER: 'ollama', SIFT_EMBEDDING_URL: standIn.url, SIFT_EMBEDDING_MODEL: 'all-minilm' });
    const texts = ['one', 'two'];
    const response = await h.call('/v1/models/embed', embedBody(texts), apiKey);
    expect(response.status).toBe(200);
    expectVectors(response.body.results.map((r: { embedding: number[] }) => r.embedding), texts);
    expect(callsTo('/api/embed').at(-1)!.body).toMatchObject({ model: 'all-minilm', input: texts });
  });
});

describe('rerank providers', () => {
  const query = 'automatic indexing';
  const documents = ['Manual cataloguing of books.', 'Automatic indexing of articles.', 'Indexing by hand.', ''];
  const expected = documents.map((document, index) => ({ index, relevance_score: toyScore(query, document) })).sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);

  test('cohere: /v2/rerank with the model and key; /v1/models/rerank answers its scores, best first', async () => {
    const { h, apiKey } = await serverWith({ SIFT_RERANK_PROVIDER: 'cohere', SIFT_RERANK_URL: standIn.url, SIFT_RERANK_MODEL: 'rerank-v3.5', SIFT_RERANK_API_KEY: 'co-test' });
    const response = await h.call('/v1/models/rerank', { model: 'zerank-2', query, documents }, apiKey);
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual(expected);
    const call = callsTo('/v2/rerank').at(-1)!;
    expect(call.authorization).toBe('Bearer co-test');
    expect(call.body).toMatchObject({ model: 'rerank-v3.5', query, documents });
  });

  test('tei: /rerank in batches of 32, each score placed by its index', async () => {
    const { h, apiKey } = await serverWith({ SIFT_RERANK_PROVIDER: 'tei', SIFT_RERANK_URL: standIn.url });
    const before = callsTo('/rerank').length;
    const many = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `automatic text ${i}` : i % 3 === 1 ? `indexing automatic ${i}` : `other ${i}`));
    const response = await h.call('/v1/models/rerank', { model: 'zerank-1', query, documents: many }, apiKey);
    expect(response.status).toBe(200);
    for (const { index, relevance_score } of response.body.results) expect(relevance_score).toBe(toyScore(query, many[index]!));
    expect(callsTo('/rerank').slice(before).map((call) => (call.body.texts as string[]).length)).toEqual([32, 8]);
  });

  test("the queries' reranker option reorders the retrieved documents by the configured model", async () => {
    const { h } = await serverWith({ SIFT_RERANK_PROVIDER: 'cohere', SIFT_RERANK_URL: standIn.url, SIFT_RERANK_MODEL: 'rerank-v3.5' });
    const f = await providerFixtures(h);
    const texts: Record<string, string> = {
      'a.txt': 'Indexing indexing indexing indexing of books by hand.',
      'b.txt': 'Automatic indexing of articles.',
      'c.txt': 'Automatic machines, and a note on indexing.',
    };
    await h.call('/v1/collections/add-collection', { collection_name: 'c' }, f.keyA);
    for (const [path, text] of Object.entries(texts)) await h.call('/v1/documents/add-document', { collection_name: 'c', path, content: { type: 'text', text } }, f.keyA);
    await f.workers.idle();
    await f.workers.stop();
    const reranked = await h.call('/v1/queries/top-documents', { collection_name: 'c', query, k: 3, reranker: 'zerank-2' }, f.keyA);
    expect(reranked.status).toBe(200);
    const results = reranked.body.results.map((r: { path: string; score: number }) => [r.path, r.score]);
    const byModel = Object.entries(texts)
      .map(([path, text]) => [path, toyScore(query, text)] as [string, number])
      .sort((a, b) => b[1] - a[1]);
    expect(results.map((r: [string, number]) => r[1])).toEqual(byModel.map((r) => r[1]));
    expect(results[2][0]).toBe('a.txt');
  });
});

describe('outages and refusals', () => {
  test('a provider that fails twice then answers is retried; one that stays down gives 503 with retry-after', async () => {
    const { h, apiKey } = await serverWith({ SIFT_EMBEDDING_PROVIDER: 'tei', SIFT_EMBEDDING_URL: standIn.url });
    const before = callsTo('/embed').length;
    standIn.failNext(2);
    expect((await h.call('/v1/models/embed', embedBody(['retried']), apiKey)).status).toBe(200);
    expect(callsTo('/embed').length - before).toBe(3);
    standIn.failNext(4);
    const down = await h.call('/v1/models/embed', embedBody(['down']), apiKey);
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBeDefined();
    expect(down.body.detail).toContain('unavailable');
  });

  test('a provider refusing the request (4xx) is not retried and answers 502', async () => {
    const { h, apiKey } = await serverWith({ SIFT_RERANK_PROVIDER: 'cohere', SIFT_RERANK_URL: standIn.url, SIFT_RERANK_MODEL: 'm' });
    const before = callsTo('/v2/rerank').length;
    standIn.failNext(1, 401);
    const refused = await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'q', documents: ['d'] }, apiKey);
    expect(refused.status).toBe(502);
    expect(callsTo('/v2/rerank').length - before).toBe(1);
  });

  test('an unreachable provider answers 503, never 500', async () => {
    const { h, apiKey } = await serverWith({ SIFT_EMBEDDING_PROVIDER: 'ollama', SIFT_EMBEDDING_URL: 'http://127.0.0.1:9', SIFT_EMBEDDING_MODEL: 'm' });
    const response = await h.call('/v1/models/embed', embedBody(['x']), apiKey);
    expect(response.status).toBe(503);
  });

  test("a reranker provider that is down leaves the queries' answers lexical, with 200", async () => {
    const { h } = await serverWith({ SIFT_RERANK_PROVIDER: 'tei', SIFT_RERANK_URL: 'http://127.0.0.1:9' });
    const f = await providerFixtures(h);
    await h.call('/v1/collections/add-collection', { collection_name: 'c' }, f.keyA);
    for (const [path, text] of [['a.txt', 'automatic indexing'], ['b.txt', 'indexing by hand']]) {
      await h.call('/v1/documents/add-document', { collection_name: 'c', path, content: { type: 'text', text } }, f.keyA);
    }
    await f.workers.idle();
    await f.workers.stop();
    const body = { collection_name: 'c', query: 'automatic indexing', k: 2 };
    const lexical = await h.call('/v1/queries/top-documents', body, f.keyA);
    const reranked = await h.call('/v1/queries/top-documents', { ...body, reranker: 'zerank-2' }, f.keyA);
    expect(reranked.status).toBe(200);
    expect(reranked.body.results.map((r: { path: string; score: number }) => [r.path, r.score])).toEqual(lexical.body.results.map((r: { path: string; score: number }) => [r.path, r.score]));
    const snippets = await h.call('/v1/queries/top-snippets', { ...body, reranker: 'zerank-2' }, f.keyA);
    expect(snippets.status).toBe(200);
    expect(snippets.body.results.length).toBeGreaterThan(0);
  });

  test('settings a provider cannot use stop the start with a message naming the variable', () => {
    const base = { SIFT_DATA_DIR: servers[0]!.config.dataDir, SIFT_SECRET: 'test-secret-0123456789abcdef' };
    expect(() => loadConfig({ ...base, SIFT_RERANK_PROVIDER: 'cohere' })).toThrow(/SIFT_RERANK_URL/);
    expect(() => loadConfig({ ...base, SIFT_EMBEDDING_PROVIDER: 'openai', SIFT_EMBEDDING_URL: 'http://x' })).toThrow(/SIFT_EMBEDDING_MODEL/);
    expect(() => loadConfig({ ...base, SIFT_EMBEDDING_PROVIDER: 'cohere' })).toThrow(ConfigError);
    expect(loadConfig(base).models).toEqual({ embedding: null, rerank: null });
  });
});
