import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// A filter passing too many rows to weigh them alone: SQLite joins the best matches to their
// documents first (engine/search/sqlite.ts bestPassing), deeper when too few of them pass, and
// every match when hardly any do. Whichever it takes, a filtered query answers what ranking the
// whole collection and keeping the rows that pass would.

let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const collection = 'many-matches';
const DOCUMENTS = 20;
const PAGES = 30;
const FILLER = ['stone', 'bridge', 'lantern', 'harbor', 'meadow', 'signal', 'copper', 'orchard', 'valley'];

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call('/v1/collections/add-collection', { collection_name: collection }, f.keyA);
  for (let i = 0; i < DOCUMENTS; i++) {
    // "river" once a page, on pages each longer than the last: every page matches, with a score of
    // its own, doc-00's best and doc-19's worst.
    const pages = Array.from({ length: PAGES }, (_, p) => ['river', ...Array.from({ length: 80 + i * PAGES + p }, (_, w) => FILLER[w % FILLER.length])].join(' '));
    const metadata = { parity: i % 2 === 0 ? 'even' : 'odd', number: String(i).padStart(2, '0') };
    const added = await h.call('/v1/documents/add-document', { collection_name: collection, path: `doc-${metadata.number}.txt`, content: { type: 'text-pages', pages }, metadata }, f.keyA);
    expect(added.status).toBe(201);
  }
  await f.workers.idle();
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

async function topPages(filter: object | null, k: number) {
  const response = await h.call('/v1/queries/top-pages', { collection_name: collection, query: 'river', k, filter }, f.keyA);
  expect(response.status).toBe(200);
  return (response.body.results as { path: string; page_index: number; score: number }[]).map((r) => ({ path: r.path, page: r.page_index, score: r.score }));
}

const filters: { name: string; filter: object; passes: (path: string) => boolean }[] = [
  { name: 'half the documents, among the best pages', filter: { parity: { $eq: 'even' } }, passes: (path) => Number(path.slice(4, 6)) % 2 === 0 },
  { name: 'all but one ($ne, which the metadata index cannot answer)', filter: { number: { $ne: '00' } }, passes: (path) => path !== 'doc-00.txt' },
  { name: 'the two worst documents, partly among the best pages', filter: { number: { $in: ['18', '19'] } }, passes: (path) => ['doc-18.txt', 'doc-19.txt'].includes(path) },
  { name: 'the worst document, none of its pages among the best', filter: { number: { $eq: '19' } }, passes: (path) => path === 'doc-19.txt' },
];

for (const { name, filter, passes } of filters) {
  test(`${name}: the whole collection's ranking, keeping the pages that pass`, async () => {
    const all = await topPages(null, 1024);
    expect(all).toHaveLength(DOCUMENTS * PAGES);
    const expected = all.filter((row) => passes(row.path));
    for (const k of [1, 3, 5, 40]) expect(await topPages(filter, k), `k = ${k}`).toEqual(expected.slice(0, k));
  });
}

test('a collection with nothing indexed yet answers any filter with no rows', async () => {
  await h.call('/v1/collections/add-collection', { collection_name: 'empty' }, f.keyA);
  for (const filter of filters.map((item) => item.filter)) {
    const response = await h.call('/v1/queries/top-pages', { collection_name: 'empty', query: 'river', k: 3, filter }, f.keyA);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.results).toEqual([]);
  }
});
