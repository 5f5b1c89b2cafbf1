import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// Embedding usage (/usage/models/embed) and the queries' `reranker` option (issue #15).

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

const v1 = (path: string) => `/v1${path}`;
const nowRange = () => {
  const now = Math.floor(Date.now() / 1000);
  return { start_time: now - 3600, end_time: now + 60, aggregation_window: 'daily' as const };
};

describe('embedding usage', () => {
  test('every /models/embed call is counted per organization (calls, bytes, tokens), like the reranker usage', async () => {
    const first = await h.call(v1('/models/embed'), { model: 'zembed-1', input_type: 'query', input: 'hello world' }, f.keyA);
    const second = await h.call(v1('/models/embed'), { model: 'zembed-1', input_type: 'document', input: ['one text', 'another text'] }, f.keyA);
    expect(first.status).toBe(200);
    const bytes = first.body.usage.total_bytes + second.body.usage.total_bytes;
    const tokens = first.body.usage.total_tokens + second.body.usage.total_tokens;

    const history = await h.call(v1('/usage/models/embed'), nowRange(), f.keyA);
    expect(history.status).toBe(200);
    expect(history.body.totals).toEqual({ embed: { count: 2, bytes } });
    expect(history.body.history.reduce((sum: number, window: { stats: { embed: { count: number } } }) => sum + window.stats.embed.count, 0)).toBe(2);

    const counters = await h.call(v1('/usage/models/counters'), undefined, f.keyA);
    expect(counters.body.all_time.embed).toEqual({ count: 2, bytes, billable_units: tokens });
    expect(counters.body.billing_cycle.embed).toEqual({ count: 2, bytes, billable_units: tokens });

    // Another organization's calls are its own; a refused call counts nothing.
    expect((await h.call(v1('/usage/models/embed'), nowRange(), f.keyB)).body.totals).toEqual({ embed: { count: 0, bytes: 0 } });
    expect((await h.call(v1('/models/embed'), { model: 'nope', input_type: 'query', input: 'x' }, f.keyA)).status).toBe(404);
    expect((await h.call(v1('/usage/models/embed'), nowRange(), f.keyA)).body.totals.embed.count).toBe(2);
  });
});

describe("the queries' reranker option", () => {
  const collection = 'reranked';
  const query = 'apple pie recipe';
  beforeAll(async () => {
    await h.call(v1('/collections/add-collection'), { collection_name: collection }, f.keyB);
    const texts = {
      'a.txt': 'Apple orchards. Apple trees. Apple harvest. Apple cider. Apple varieties grow in apple orchards.',
      'b.txt': 'A recipe for apple pie: apples, butter, flour, sugar. Bake the apple pie for an hour. This pie recipe is simple.',
      'c.txt': 'Pie charts show proportions; a recipe for charts.',
      'd.txt': 'Bananas are yellow.',
    };
    for (const [path, text] of Object.entries(texts)) {
      await h.call(v1('/documents/add-document'), { collection_name: collection, path, content: { type: 'text-pages', pages: [text, `${text} (page two)`] } }, f.keyB);
    }
    await f.workers.idle();
  });

  // Without a configured model the built-in reranker keeps the index's BM25 order and scores
  // (built-in.ts says why); a configured model's order is tested in model-providers.test.ts.
  const sameAsPlain = async (route: string, body: Record<string, unknown>) => {
    const plain = await h.call(v1(`/queries/${route}`), body, f.keyB);
    const reranked = await h.call(v1(`/queries/${route}`), { ...body, reranker: 'zerank-2' }, f.keyB);
    expect(reranked.status).toBe(200);
    expect(reranked.body).toEqual(plain.body);
    return reranked.body;
  };

  test('top-snippets, top-pages, top-documents: the built-in reranker keeps the index order and scores', async () => {
    expect((await sameAsPlain('top-snippets', { collection_name: collection, query, k: 10, precise_responses: true })).results.length).toBeGreaterThan(0);
    const pages = await sameAsPlain('top-pages', { collection_name: collection, query, k: 8 });
    expect(pages.results.every((r: { content: string | null }) => r.content === null)).toBe(true);
    await sameAsPlain('top-pages', { collection_name: collection, query, k: 8, include_content: true });
    expect((await sameAsPlain('top-documents', { collection_name: collection, query, k: 4 })).results[0].path).toBe('b.txt');
  });

  test('an unknown reranker is refused as /models/rerank refuses it, and nothing is counted', async () => {
    const before = (await h.call(v1('/usage/queries'), nowRange(), f.keyB)).body.totals.queries.count;
    const rerankRefusal = await h.call(v1('/models/rerank'), { model: 'zerank-9', query, documents: ['x'] }, f.keyB);
    for (const route of ['top-documents', 'top-pages', 'top-snippets']) {
      const response = await h.call(v1(`/queries/${route}`), { collection_name: collection, query, k: 3, reranker: 'zerank-9' }, f.keyB);
      expect(response.status).toBe(404);
      expect(response.body.detail).toBe(rerankRefusal.body.detail);
    }
    expect((await h.call(v1('/usage/queries'), nowRange(), f.keyB)).body.totals.queries.count).toBe(before);
  });

  test('reranking a query counts as reranker usage and against the byte budget', async () => {
    const usage = async () => (await h.call(v1('/usage/models/reranker'), nowRange(), f.keyA)).body.totals.rerank;
    await h.call(v1('/collections/add-collection'), { collection_name: 'budget' }, f.keyA);
    const page = `apple pie ${'filling '.repeat(60_000)}`; // about 480 KB
    for (const path of ['1.txt', '2.txt', '3.txt', '4.txt', '5.txt']) {
      await h.call(v1('/documents/add-document'), { collection_name: 'budget', path, content: { type: 'text', text: page } }, f.keyA);
    }
    await f.workers.idle();
    const before = await usage();
    const first = await h.call(v1('/queries/top-snippets'), { collection_name: 'budget', query: 'apple pie', k: 3, reranker: 'zerank-2' }, f.keyA);
    expect(first.status).toBe(200);
    const after = await usage();
    expect(after.count).toBe(before.count + 1);
    expect(after.bytes).toBeGreaterThan(before.bytes);
    // Snippets are small; pages are reranked whole, ~480 KB each: three pages fit the
    // 2,000,000-byte budget once, not twice in the same minute.
    const pages = { collection_name: 'budget', query: 'apple pie', k: 3, reranker: 'zerank-2' };
    expect((await h.call(v1('/queries/top-pages'), pages, f.keyA)).status).toBe(200);
    const limited = await h.call(v1('/queries/top-pages'), pages, f.keyA);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
  });
});
