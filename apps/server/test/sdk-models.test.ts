import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ZeroEntropy, { AuthenticationError, NotFoundError, RateLimitError, UnprocessableEntityError } from 'zeroentropy';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type Harness, startHarness } from './harness.ts';

// The official SDK against a listening server: only `baseURL` differs from a program written
// for the hosted API. `maxRetries: 0` so a 429 surfaces instead of being retried.
// The installed SDK (0.1.0-alpha.10) has no `parsers` resource yet (later versions add
// `parsers.parseDocument({ base64_data })`), so that call goes through its generic `post`, which
// shares the same headers, retries and error classes.

let h: Harness;
let baseURL: string;
let client: ZeroEntropy;

const clientFor = async (organizationName: string) => {
  const { apiKey } = await bootstrap(h.database, h.keyring, { email: `${organizationName}@example.com`, name: organizationName, organizationName });
  return new ZeroEntropy({ apiKey, baseURL, maxRetries: 0 });
};

beforeAll(async () => {
  h = await startHarness();
  const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseURL = `${address}/v1`;
  client = await clientFor('sdk');
});
afterAll(() => h.close());

describe('zeroentropy SDK: models', () => {
  test('models.rerank returns results sorted by relevance, top_n applied', async () => {
    const response = await client.models.rerank({
      model: 'zerank-2',
      query: 'What is the capital of France?',
      documents: ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas are yellow.'],
      top_n: 2,
    });
    expect(response.results).toHaveLength(2);
    expect(response.results[0]!.index).toBe(1);
    expect(response.results[0]!.relevance_score).toBeGreaterThan(response.results[1]!.relevance_score);
    expect(response.total_bytes).toBeGreaterThan(450);
    expect(response.actual_latency_mode).toBe('fast');
  });

  test('models.embed returns float or base64 vectors of the requested dimensions', async () => {
    const floats = await client.models.embed({ model: 'zembed-1', input_type: 'document', input: ['alpha beta', 'gamma'], dimensions: 320 });
    expect(floats.results.map((r) => (r.embedding as number[]).length)).toEqual([320, 320]);
    const encoded = await client.models.embed({ model: 'zembed-1', input_type: 'document', input: 'alpha beta', dimensions: 320, encoding_format: 'base64' });
    const bytes = Buffer.from(encoded.results[0]!.embedding as string, 'base64');
    expect(Array.from({ length: 320 }, (_, i) => bytes.readFloatLE(i * 4))).toEqual(floats.results[0]!.embedding);
    expect(encoded.usage.total_bytes).toBe(160);
  });

  test('an unknown model raises NotFoundError, bad dimensions UnprocessableEntityError, a wrong key AuthenticationError', async () => {
    await expect(client.models.rerank({ model: 'nope', query: 'q', documents: ['d'] })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.models.embed({ model: 'zembed-1', input_type: 'query', input: 'q', dimensions: 7 })).rejects.toBeInstanceOf(
      UnprocessableEntityError,
    );
    const stranger = new ZeroEntropy({ apiKey: 'wrong', baseURL, maxRetries: 0 });
    await expect(stranger.models.rerank({ model: 'zerank-2', query: 'q', documents: ['d'] })).rejects.toBeInstanceOf(AuthenticationError);
  });

  test('past the byte budget models.rerank raises RateLimitError carrying retry-after', async () => {
    const busy = await clientFor('busy');
    const documents = ['lorem ipsum dolor sit amet '.repeat(13_000), 'lorem ipsum dolor sit amet '.repeat(13_000)];
    await busy.models.rerank({ model: 'zerank-2', query: 'lorem', documents });
    await busy.models.rerank({ model: 'zerank-2', query: 'lorem', documents });
    const error = await busy.models.rerank({ model: 'zerank-2', query: 'lorem', documents }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const retryAfter = Number((error as RateLimitError).headers?.['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The organization's budget is its own: another key of another organization still works.
    await expect(client.models.rerank({ model: 'zerank-2', query: 'lorem', documents: ['lorem'] })).resolves.toBeTruthy();
  });
});

describe('zeroentropy SDK: parsers', () => {
  const parseDocument = (sdk: ZeroEntropy, base64_data: string) =>
    sdk.post<{ base64_data: string }, { pages: string[] }>('/parsers/parse-document', { body: { base64_data } });
  const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', 'ingest', name)).toString('base64');

  test('parse-document returns the pages of a PDF', async () => {
    const { pages } = await parseDocument(client, fixture('two-pages.pdf'));
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('quick brown fox');
  });

  test('an unreadable file raises UnprocessableEntityError carrying the reason', async () => {
    const error = await parseDocument(client, fixture('damaged.pdf')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).message).toMatch(/^422 /);
  });
});
