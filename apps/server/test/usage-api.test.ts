import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * /v1/usage after real actions through the provider API: documents added and indexed (one image
 * through OCR), queries, reranker calls. Counters and histories must say what was done.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const v1 = (path: string) => `/v1${path}`;
const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');
const texts = {
  'a/one.txt': 'Quarterly revenue grew by twelve percent across every region.',
  'a/two.txt': 'The refund policy allows returns within thirty days of purchase.',
  'b/three.txt': 'Support tickets are answered within one business day.',
};
const png = readFileSync(new URL('./fixtures/ingest/words.png', import.meta.url));
const queries = ['refund policy', 'revenue growth', 'support tickets'];
const rerankBytes: number[] = [];
let startedAt: number;
let endedAt: number;

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  startedAt = Math.floor(Date.now() / 1000);
  for (const name of ['usage-a', 'usage-b', 'usage-ocr']) expect((await h.call(v1('/collections/add-collection'), { collection_name: name }, f.keyA)).status).toBe(201);
  for (const [path, text] of Object.entries(texts)) {
    const collection = path.startsWith('b/') ? 'usage-b' : 'usage-a';
    expect((await h.call(v1('/documents/add-document'), { collection_name: collection, path, content: { type: 'text', text } }, f.keyA)).status).toBe(201);
  }
  const image = { collection_name: 'usage-ocr', path: 'words.png', content: { type: 'auto', base64_data: png.toString('base64') } };
  expect((await h.call(v1('/documents/add-document'), image, f.keyA)).status).toBe(201);
  await f.workers.idle();
  expect((await h.call(v1('/queries/top-documents'), { collection_name: 'usage-a', query: queries[0], k: 3 }, f.keyA)).status).toBe(200);
  expect((await h.call(v1('/queries/top-snippets'), { collection_name: 'usage-a', query: queries[1], k: 3 }, f.keyA)).status).toBe(200);
  expect((await h.call(v1('/queries/top-pages'), { collection_name: 'usage-b', query: queries[2], k: 3 }, f.keyA)).status).toBe(200);
  for (const documents of [['refunds within 30 days', 'shipping'], ['one', 'two', 'three']]) {
    const reranked = await h.call(v1('/models/rerank'), { model: 'zerank-2', query: 'refund policy', documents }, f.keyA);
    expect(reranked.status).toBe(200);
    rerankBytes.push(reranked.body.total_bytes);
  }
  endedAt = Math.floor(Date.now() / 1000);
}, 120_000);
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

const textBytes = (paths: string[]) => paths.reduce((sum, path) => sum + utf8(texts[path as keyof typeof texts]), 0);
const allTextPaths = Object.keys(texts);

describe('usage counters after real actions', () => {
  test('Docs, OCR, Indexed and Queries count what was added, read by OCR, indexed and asked', async () => {
    const counters = await h.call(v1('/usage/counters'), undefined, f.keyA);
    expect(counters.status).toBe(200);
    for (const period of ['all_time', 'billing_cycle'] as const) {
      const stats = counters.body[period];
      expect(stats.docs).toMatchObject({ count: 4, bytes: textBytes(allTextPaths) + png.length });
      expect(stats.indexed).toMatchObject({ count: 4, bytes: textBytes(allTextPaths) + png.length });
      expect(stats.ocr.count).toBeGreaterThanOrEqual(1);
      expect(stats.ocr.bytes).toBe(png.length);
      expect(stats.queries).toEqual({ count: 3, bytes: queries.reduce((sum, q) => sum + utf8(q), 0), billable_units: 3 });
    }
  });

  test('Rerank counts the reranker calls and their request bytes', async () => {
    const counters = await h.call(v1('/usage/models/counters'), {}, f.keyA);
    expect(counters.status).toBe(200);
    expect(counters.body.all_time.rerank).toMatchObject({ count: 2, bytes: rerankBytes[0]! + rerankBytes[1]! });
    expect(counters.body.billing_cycle.rerank).toMatchObject({ count: 2 });
  });

  test("another organization's key sees none of it", async () => {
    const counters = await h.call(v1('/usage/counters'), {}, f.keyB);
    expect(counters.body.all_time.docs).toEqual({ count: 0, bytes: 0, billable_units: 0 });
  });

  test('a read_only key may read usage; no key is refused with 401', async () => {
    expect((await h.call(v1('/usage/counters'), {}, f.readOnlyA)).status).toBe(200);
    expect((await h.call(v1('/usage/counters'), {})).status).toBe(401);
    expect((await h.call(v1('/usage/documents'), { start_time: 0, end_time: 1, aggregation_window: 'daily' })).status).toBe(401);
  });
});

describe('usage histories after real actions', () => {
  const range = () => ({ start_time: startedAt - (startedAt % 60), end_time: endedAt + 59, aggregation_window: 'minutely' as const });

  test('the minutely history of the documents holds every addition and indexing, in time order', async () => {
    const history = await h.call(v1('/usage/documents'), range(), f.keyA);
    expect(history.status).toBe(200);
    expect(history.body.granularity).toBe('minutely');
    const starts = history.body.history.map((w: { window_start: number }) => w.window_start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts[0]).toBe(range().start_time);
    expect(history.body.totals.docs).toEqual({ count: 4, bytes: textBytes(allTextPaths) + png.length });
    expect(history.body.totals.indexed.count).toBe(4);
    const summed = history.body.history.reduce((sum: number, w: { stats: { docs: { count: number } } }) => sum + w.stats.docs.count, 0);
    expect(summed).toBe(4);
  });

  test('collection_names filters the documents and queries histories; an empty list means none', async () => {
    const only = (collection_names?: string[]) => h.call(v1('/usage/documents'), { ...range(), collection_names }, f.keyA);
    expect((await only(['usage-b'])).body.totals.docs).toEqual({ count: 1, bytes: textBytes(['b/three.txt']) });
    expect((await only(['usage-a', 'usage-ocr'])).body.totals.docs.count).toBe(3);
    expect((await only([])).body.totals.docs).toEqual({ count: 0, bytes: 0 });
    const asked = await h.call(v1('/usage/queries'), { ...range(), aggregation_window: 'hourly', collection_names: ['usage-a'] }, f.keyA);
    expect(asked.body.totals.queries).toEqual({ count: 2, bytes: utf8(queries[0]!) + utf8(queries[1]!) });
  });

  test('the reranker history counts the calls and ignores collection_names', async () => {
    const history = await h.call(v1('/usage/models/reranker'), { ...range(), aggregation_window: 'daily', collection_names: [] }, f.keyA);
    expect(history.status).toBe(200);
    expect(history.body.totals.rerank).toEqual({ count: 2, bytes: rerankBytes[0]! + rerankBytes[1]! });
    expect(history.body.history[0].window_start).toBe(range().start_time);
  });

  test('bad input is refused with 422 and says why', async () => {
    const reversed = await h.call(v1('/usage/queries'), { start_time: 100, end_time: 99, aggregation_window: 'hourly' }, f.keyA);
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toBe('end_time must not be before start_time.');
    const tooLong = await h.call(v1('/usage/documents'), { start_time: 0, end_time: 30 * 86_400, aggregation_window: 'minutely' }, f.keyA);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail).toMatch(/at most 10080 .*minutely history covers at most 7 days/);
    const wrongWindow = await h.call(v1('/usage/documents'), { start_time: 0, end_time: 10, aggregation_window: 'weekly' }, f.keyA);
    expect(wrongWindow.status).toBe(422);
    expect(wrongWindow.body.detail[0].loc).toEqual(['body', 'aggregation_window']);
  });
});
