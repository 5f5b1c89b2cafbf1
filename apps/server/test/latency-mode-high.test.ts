import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * `latency_mode: "high"`: RM3 pseudo-relevance feedback. A small corpus where the query's best
 * documents share a vocabulary that one relevant document has without any word of the query.
 * The PostgreSQL pass of `npm test` also loads it into both databases and compares.
 */
const v1 = (path: string) => `/v1${path}`;
const c = 'cardiology';
const QUERY = 'heart attack';
const TARGET = 'cardio/infarction.txt';

const topical = [
  'A heart attack is a myocardial infarction: a coronary artery is blocked and cardiac muscle dies.',
  'After a heart attack, patients with coronary artery disease take statins against cholesterol and plaque.',
  'Heart attack symptoms: chest pain, then myocardial infarction confirmed by troponin and an electrocardiogram.',
  'Coronary angioplasty opens the artery after a heart attack; cholesterol plaque and troponin are measured.',
];
const fillerWords = 'garden tomato basil soil compost sunlight watering pruning harvest seed bicycle chain gear saddle pedal brake tyre river bridge ferry harbour sailing anchor violin piano melody chord rhythm orchestra bakery flour yeast oven dough crust'.split(' ');
const filler = Array.from({ length: 60 }, (_, i) =>
  Array.from({ length: 14 }, (_, j) => fillerWords[(i * 7 + j * 5) % fillerWords.length]).join(' ') + '.',
);
const corpus: [string, string][] = [
  ...topical.map((text, i): [string, string] => [`cardio/${i}.txt`, text]),
  [TARGET, 'Myocardial infarction: coronary artery occlusion by cholesterol plaque, with troponin raised on the electrocardiogram day.'],
  ...filler.map((text, i): [string, string] => [`other/${String(i).padStart(2, '0')}.txt`, text]),
];

async function load(h: Harness) {
  const f = await providerFixtures(h);
  await h.call(v1('/collections/add-collection'), { collection_name: c }, f.keyA);
  for (const [path, text] of corpus) await h.call(v1('/documents/add-document'), { collection_name: c, path, content: { type: 'text', text } }, f.keyA);
  await f.workers.idle();
  return f;
}

/** Its own describe block: its database is closed before the cross-database block opens two more (kysely's migrator sees other schemas' tables). */
describe('latency_mode', () => {
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  beforeAll(async () => {
    h = await startHarness();
    f = await load(h);
  });
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
  });

  const paths = (body: { results: { path: string }[] }) => body.results.map((result) => result.path);
  const search = (endpoint: string, body: object) => h.call(v1(`/queries/${endpoint}`), { collection_name: c, query: QUERY, k: 10, ...body }, f.keyA);

  test('"high" finds a relevant document that shares no word with the query but many with its best results; "low" does not', async () => {
    const low = await search('top-documents', { latency_mode: 'low' });
    expect(low.status).toBe(200);
    expect(paths(low.body)).not.toContain(TARGET);
    const high = await search('top-documents', { latency_mode: 'high' });
    expect(high.status).toBe(200);
    expect(paths(high.body)).toContain(TARGET);
    // The documents that contain the query's words still come first.
    expect(paths(high.body).slice(0, 4).every((path) => path.startsWith('cardio/') && path !== TARGET)).toBe(true);
    for (const result of high.body.results) expect(result.score).toBeGreaterThan(0);
    for (const result of high.body.results) expect(result.score).toBeLessThanOrEqual(1);
  });

  test('"high" does the same on top-pages and top-snippets (fine and coarse)', async () => {
    for (const [endpoint, body] of [
      ['top-pages', {}],
      ['top-snippets', {}],
      ['top-snippets', { precise_responses: true }],
    ] as const) {
      const low = await search(endpoint, { ...body, latency_mode: 'low' });
      const high = await search(endpoint, { ...body, latency_mode: 'high' });
      expect(high.status).toBe(200);
      expect(paths(low.body)).not.toContain(TARGET);
      expect(paths(high.body)).toContain(TARGET);
    }
  });

  test('"low" is the default, unchanged: the same results with and without it', async () => {
    for (const endpoint of ['top-documents', 'top-pages', 'top-snippets']) {
      const plain = await search(endpoint, {});
      const low = await search(endpoint, { latency_mode: 'low' });
      expect(low.body).toEqual(plain.body);
    }
  });

  test('the reranker applies after the expansion: it reorders the expanded results', async () => {
    const high = await search('top-documents', { latency_mode: 'high' });
    const reranked = await search('top-documents', { latency_mode: 'high', reranker: 'zerank-2' });
    expect(paths(reranked.body).sort()).toEqual(paths(high.body).sort());
    // The model scores the target 0 (it has no word of the query), so it goes last.
    expect(paths(reranked.body).at(-1)).toBe(TARGET);
  });

  test("top-snippets' latency_mode is described in Sift's OpenAPI as Sift's own option", async () => {
    const spec = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const property = spec.paths['/v1/queries/top-snippets'].post.requestBody.content['application/json'].schema.properties.latency_mode;
    expect(property).toMatchObject({ enum: ['low', 'high'], default: 'low' });
    expect(property.description).toContain("Sift's own option");
  });

  test('"high" judges a term too common by its share of documents: a word in every passage of one long document still expands the query', async () => {
    // One long document's passages are all the feedback, and its every passage names troponin: a
    // third of the collection's passages, but 2 of its 62 documents, so troponin expands the query.
    const collection = 'long-cardiology';
    await h.call(v1('/collections/add-collection'), { collection_name: collection }, f.keyA);
    const long = 'A heart attack raises troponin in the blood. '.repeat(1800);
    const documents: [string, string][] = [['long.txt', long], ['target.txt', 'Troponin in the blood rises.'], ...filler.map((text, i): [string, string] => [`other/${i}.txt`, text])];
    for (const [path, text] of documents) await h.call(v1('/documents/add-document'), { collection_name: collection, path, content: { type: 'text', text } }, f.keyA);
    await f.workers.idle();
    const passages = await h.call(v1('/queries/top-snippets'), { collection_name: collection, query: 'troponin', k: 100, precise_responses: false }, f.keyA);
    expect(passages.body.results.length).toBeGreaterThan(20);
    const inMode = async (latency_mode: 'low' | 'high') =>
      paths((await h.call(v1('/queries/top-documents'), { collection_name: collection, query: QUERY, k: 10, latency_mode }, f.keyA)).body);
    expect(await inMode('low')).toEqual(['long.txt']);
    expect(await inMode('high')).toEqual(['long.txt', 'target.txt']);
  });

  test('a query without searchable words finds nothing in either mode', async () => {
    const high = await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'the of and', k: 10, latency_mode: 'high' }, f.keyA);
    expect(high.status).toBe(200);
    expect(high.body.results).toEqual([]);
  });
});

/** Needs both databases at once: runs in the PostgreSQL pass of `npm test`. */
describe.runIf(process.env.SIFT_TEST_DIALECT === 'postgres' && process.env.TEST_POSTGRES_URL)('SQLite and PostgreSQL', () => {
  const both: { h: Harness; f: Awaited<ReturnType<typeof providerFixtures>> }[] = [];
  beforeAll(async () => {
    for (const dialect of ['sqlite', 'postgres'] as const) {
      const harness = await startHarness({}, { dialect });
      both.push({ h: harness, f: await load(harness) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { h: harness, f: fixtures } of both) {
      await fixtures.workers.stop();
      await harness.close();
    }
  });

  test('give the same "high" results, in the same order with the same scores, on the same corpus', async () => {
    expect(both.map(({ h: harness }) => harness.database.dialect)).toEqual(['sqlite', 'postgres']);
    for (const query of [QUERY, 'cholesterol plaque', 'coronary artery troponin', 'garden soil', 'piano melody orchestra']) {
      for (const [endpoint, body] of [
        ['top-documents', {}],
        ['top-pages', {}],
        ['top-snippets', {}],
        ['top-snippets', { precise_responses: true }],
      ] as const) {
        const request = { collection_name: c, query, k: 10, latency_mode: 'high', ...body };
        const [onSqlite, onPostgres] = await Promise.all(both.map(({ h: harness, f: fixtures }) => harness.call(v1(`/queries/${endpoint}`), request, fixtures.keyA)));
        const results = (response: { body: { results: { path: string; score: number }[] } }) => response.body.results;
        expect(results(onPostgres!).map((r) => r.path)).toEqual(results(onSqlite!).map((r) => r.path));
        expect(results(onSqlite!).length).toBeGreaterThan(0);
        results(onSqlite!).forEach((r, i) => expect(results(onPostgres!)[i]!.score).toBeCloseTo(r.score, 12));
      }
    }
  });
});
