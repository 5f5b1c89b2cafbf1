import { RERANK_MODEL_IDS } from '@sift/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addApiKey } from '../src/domain/api-keys.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { RERANK_BYTES_PER_MINUTE } from '../src/domain/limits.ts';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
let org: Awaited<ReturnType<typeof bootstrap>>;
let readOnlyKey: string;

beforeAll(async () => {
  h = await startHarness();
  org = await bootstrap(h.database, h.keyring, { email: 'models@example.com', name: 'Models', organizationName: 'Models' });
  readOnlyKey = (
    await addApiKey(h.database, { keyring: h.keyring, userId: org.userId }, { organization_id: org.organizationId, name: 'reader', permission: 'read_only' })
  ).api_key;
});
afterAll(() => h.close());

const documents = [
  'Bananas are yellow fruit rich in potassium.',
  'Sift reranks search results with a lexical relevance model.',
  'A reranker reorders search results by their relevance to the query.',
  '',
];

const usageRows = (organizationId: string) =>
  h.database.db.selectFrom('reranker_usage').selectAll().where('organization_id', '=', organizationId).execute();

describe('/v1/models/rerank', () => {
  test('answers every document sorted by descending relevance, with the usage figures of the OpenAPI description', async () => {
    const query = 'rerank search results';
    const response = await h.call('/v1/models/rerank', { model: 'zerank-2', query, documents }, org.apiKey);
    expect(response.status).toBe(200);
    const { results } = response.body;
    expect(results.map((r: { index: number }) => r.index).sort()).toEqual([0, 1, 2, 3]);
    const scores = results.map((r: { relevance_score: number }) => r.relevance_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((s: number) => s >= 0 && s <= 1)).toBe(true);
    expect(results[results.length - 1].index).not.toBe(1);
    expect([1, 2]).toContain(results[0].index);
    const bytes = documents.reduce((sum, d) => sum + 150 + Buffer.byteLength(query) + Buffer.byteLength(d), 0);
    expect(response.body.total_bytes).toBe(bytes);
    expect(response.body.total_tokens).toBeGreaterThan(0);
    expect(response.body.actual_latency_mode).toBe('fast');
    expect(response.body.e2e_latency).toBeGreaterThanOrEqual(response.body.inference_latency);
    expect(response.body.inference_latency).toBeGreaterThanOrEqual(0);
  });

  test('top_n keeps only the best n results; latency "slow" is echoed', async () => {
    const all = await h.call('/v1/models/rerank', { model: 'zerank-1', query: 'reranker relevance', documents }, org.apiKey);
    const top = await h.call('/v1/models/rerank', { model: 'zerank-1', query: 'reranker relevance', documents, top_n: 2, latency: 'slow' }, org.apiKey);
    expect(top.status).toBe(200);
    expect(top.body.results).toEqual(all.body.results.slice(0, 2));
    expect(top.body.actual_latency_mode).toBe('slow');
    const none = await h.call('/v1/models/rerank', { model: 'zerank-1', query: 'q', documents: [] }, org.apiKey);
    expect(none.body).toMatchObject({ results: [], total_bytes: 0, total_tokens: 0 });
  });

  test('every model id of the OpenAPI description is served, and by the same built-in model', async () => {
    const bodies = [];
    for (const model of RERANK_MODEL_IDS) {
      const response = await h.call('/v1/models/rerank', { model, query: 'yellow fruit', documents }, org.apiKey);
      expect(response.status).toBe(200);
      bodies.push(response.body.results);
    }
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  test('an unknown model is 404 and a malformed body is 422 with the validation list', async () => {
    const unknown = await h.call('/v1/models/rerank', { model: 'zerank-99', query: 'q', documents }, org.apiKey);
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('zerank-99');
    const missing = await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'q' }, org.apiKey);
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'documents']);
    const negative = await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'q', documents, top_n: -1 }, org.apiKey);
    expect(negative.status).toBe(422);
  });

  test('no key or a wrong key is 401; a read_only key may rerank, since nothing changes', async () => {
    const body = { model: 'zerank-2', query: 'q', documents };
    expect((await h.call('/v1/models/rerank', body)).status).toBe(401);
    expect((await h.call('/v1/models/rerank', body, 'not-a-key')).status).toBe(401);
    expect((await h.call('/v1/models/rerank', body, readOnlyKey)).status).toBe(200);
  });

  test('each call adds a reranker usage event (explicit call) to the minute window of its organization', async () => {
    const other = await bootstrap(h.database, h.keyring, { email: 'usage@example.com', name: 'Usage', organizationName: 'Usage' });
    const first = await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'fruit', documents }, other.apiKey);
    const second = await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'results', documents: documents.slice(0, 2) }, other.apiKey);
    await h.call('/v1/models/rerank', { model: 'zerank-1-small', query: 'x', documents: ['y'] }, other.apiKey);
    const rows = await usageRows(other.organizationId);
    const zerank2 = rows.filter((row) => row.reranker_model === 'zerank-2');
    expect(rows.every((row) => Number(row.window_start) % 60 === 0 && Number(row.explicit_call) === 1)).toBe(true);
    const sum = (key: 'event_count' | 'total_request_bytes' | 'total_documents_reranked' | 'total_reranker_tokens') =>
      zerank2.reduce((total, row) => total + Number(row[key]), 0);
    expect(sum('event_count')).toBe(2);
    expect(sum('total_request_bytes')).toBe(first.body.total_bytes + second.body.total_bytes);
    expect(sum('total_reranker_tokens')).toBe(first.body.total_tokens + second.body.total_tokens);
    expect(sum('total_documents_reranked')).toBe(6);
    expect(rows.filter((row) => row.reranker_model === 'zerank-1-small')).toHaveLength(1);
  });

  test('past 2,000,000 bytes in a minute an organization gets 429 with retry-after; other organizations are unaffected', async () => {
    const busy = await bootstrap(h.database, h.keyring, { email: 'busy@example.com', name: 'Busy', organizationName: 'Busy' });
    const big = 'lorem ipsum dolor sit amet '.repeat(26_000); // 702,000 bytes
    const body = { model: 'zerank-2', query: 'lorem', documents: [big] };
    expect((await h.call('/v1/models/rerank', body, busy.apiKey)).status).toBe(200);
    expect((await h.call('/v1/models/rerank', body, busy.apiKey)).status).toBe(200);
    const refused = await h.call('/v1/models/rerank', body, busy.apiKey);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toContain('2,000,000 bytes per minute');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A refused call is not counted as usage.
    const rows = await usageRows(busy.organizationId);
    expect(rows.reduce((n, row) => n + Number(row.event_count), 0)).toBe(2);
    // Small requests within what is left still pass.
    expect((await h.call('/v1/models/rerank', { ...body, documents: ['lorem'] }, busy.apiKey)).status).toBe(200);
    expect((await h.call('/v1/models/rerank', body, org.apiKey)).status).toBe(200);
  });

  test('one request larger than the whole per-minute budget is refused with 422, not told to retry', async () => {
    const huge = 'a'.repeat(RERANK_BYTES_PER_MINUTE);
    const response = await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'a', documents: [huge] }, org.apiKey);
    expect(response.status).toBe(422);
    expect(response.headers['retry-after']).toBeUndefined();
  });
});

describe('/v1/models/embed', () => {
  test('embeds a string as 2560 floats by default, and a list in order with the requested dimensions', async () => {
    const one = await h.call('/v1/models/embed', { model: 'zembed-1', input_type: 'query', input: 'hello world' }, org.apiKey);
    expect(one.status).toBe(200);
    expect(one.body.results).toHaveLength(1);
    expect(one.body.results[0].embedding).toHaveLength(2560);
    expect(one.body.usage).toEqual({ total_bytes: 161, total_tokens: 2 });
    const many = await h.call(
      '/v1/models/embed',
      { model: 'zembed-1', input_type: 'document', input: ['hello world', 'second'], dimensions: 80 },
      org.apiKey,
    );
    expect(many.body.results.map((r: { embedding: number[] }) => r.embedding.length)).toEqual([80, 80]);
    expect(many.body.results[0].embedding).not.toEqual(many.body.results[1].embedding);
  });

  test('base64 encoding carries the same little-endian float32 values', async () => {
    const request = { model: 'zembed-1', input_type: 'query', input: 'base64 please', dimensions: 40 };
    const floats = await h.call('/v1/models/embed', request, org.apiKey);
    const encoded = await h.call('/v1/models/embed', { ...request, encoding_format: 'base64' }, readOnlyKey);
    const bytes = Buffer.from(encoded.body.results[0].embedding, 'base64');
    expect(Array.from({ length: 40 }, (_, i) => bytes.readFloatLE(i * 4))).toEqual(floats.body.results[0].embedding);
  });

  test('unknown model 404, unsupported dimensions or a missing input_type 422, no key 401', async () => {
    const body = { model: 'zembed-1', input_type: 'query', input: 'x' };
    expect((await h.call('/v1/models/embed', { ...body, model: 'text-embedding-3' }, org.apiKey)).status).toBe(404);
    expect((await h.call('/v1/models/embed', { ...body, dimensions: 1536 }, org.apiKey)).status).toBe(422);
    expect((await h.call('/v1/models/embed', { model: 'zembed-1', input: 'x' }, org.apiKey)).status).toBe(422);
    expect((await h.call('/v1/models/embed', { ...body, encoding_format: 'int8' }, org.apiKey)).status).toBe(422);
    expect((await h.call('/v1/models/embed', body)).status).toBe(401);
  });
});
