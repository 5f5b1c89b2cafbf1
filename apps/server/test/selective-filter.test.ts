import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { filterCandidates } from '../src/engine/search/filter.ts';
import { passingRows } from '../src/engine/search/sqlite.ts';
import { GRANULARITIES } from '../src/engine/search/sqlite-file.ts';
import { parseMetadataFilter } from '../src/domain/metadata-filter.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// Issue #11 pt 3: a selective metadata filter ranks only the rows of the documents that pass it
// (engine/search/sqlite.ts selectiveTop). Whatever the path, a filtered query answers exactly what
// ranking the whole collection and keeping the documents that pass would: same rows, order, scores.

let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const collection = 'filtered';
const GROUPS = ['g0', 'g1', 'g2', 'g3', 'g4', 'g5'];
const WORDS = ['river', 'stone', 'bridge', 'lantern', 'harbor', 'meadow', 'signal', 'copper', 'orchard', 'valley'];

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call('/v1/collections/add-collection', { collection_name: collection }, f.keyA);
  for (let i = 0; i < 48; i++) {
    // Common words in every document, in varying amounts and lengths; pages and snippets of several sizes.
    const sentence = (j: number) => `The ${WORDS[(i + j) % WORDS.length]} and the ${WORDS[(i * 3 + j) % WORDS.length]} near the river ${WORDS[(i * 7 + j) % 10]}.`;
    const pages = Array.from({ length: 1 + (i % 3) }, (_, p) => Array.from({ length: 3 + ((i + p) % 9) }, (_, j) => sentence(j + p)).join(' '));
    const metadata = { group: GROUPS[i % GROUPS.length]!, rank: String(i % 4), 'list:tags': i % 5 === 0 ? ['odd', 'rare'] : ['plain'] };
    const added = await h.call('/v1/documents/add-document', { collection_name: collection, path: `doc-${String(i).padStart(2, '0')}.txt`, content: { type: 'text-pages', pages }, metadata }, f.keyA);
    expect(added.status).toBe(201);
  }
  await f.workers.idle();
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

type Kind = { path: string; body: object; most: number; rows: (body: Record<string, unknown>) => { path: string; score: number; at?: unknown }[] };
const KINDS: Record<string, Kind> = {
  documents: { path: '/v1/queries/top-documents', body: { include_metadata: true }, most: 1024, rows: (b) => (b.results as { path: string; score: number }[]).map((r) => ({ path: r.path, score: r.score })) },
  pages: {
    path: '/v1/queries/top-pages',
    body: {},
    most: 1024,
    rows: (b) => (b.results as { path: string; score: number; page_index: number }[]).map((r) => ({ path: r.path, score: r.score, at: r.page_index })),
  },
  coarse: {
    path: '/v1/queries/top-snippets',
    body: {},
    most: 128,
    rows: (b) => (b.results as { path: string; score: number; start_index: number }[]).map((r) => ({ path: r.path, score: r.score, at: r.start_index })),
  },
  fine: {
    path: '/v1/queries/top-snippets',
    body: { precise_responses: true },
    most: 128,
    rows: (b) => (b.results as { path: string; score: number; start_index: number }[]).map((r) => ({ path: r.path, score: r.score, at: r.start_index })),
  },
};

const groupOf = (path: string) => GROUPS[Number(/doc-(\d+)/.exec(path)![1]) % GROUPS.length]!;
const numberOf = (path: string) => Number(/doc-(\d+)/.exec(path)![1]);

async function query(kind: Kind, filter: object | null, k: number) {
  const response = await h.call(kind.path, { collection_name: collection, query: 'river stone bridge the valley', k, filter, ...kind.body }, f.keyA);
  expect(response.status).toBe(200);
  return kind.rows(response.body);
}

describe('a selective filter', () => {
  const filters: { name: string; filter: object; passes: (path: string) => boolean }[] = [
    { name: '$eq', filter: { group: { $eq: 'g3' } }, passes: (path) => groupOf(path) === 'g3' },
    { name: '$in', filter: { group: { $in: ['g1', 'g4'] } }, passes: (path) => ['g1', 'g4'].includes(groupOf(path)) },
    { name: 'a list value', filter: { 'list:tags': { $in: ['rare'] } }, passes: (path) => numberOf(path) % 5 === 0 },
    { name: '$and with $ne', filter: { $and: [{ group: { $eq: 'g2' } }, { rank: { $ne: '0' } }] }, passes: (path) => groupOf(path) === 'g2' && numberOf(path) % 4 !== 0 },
    { name: '$or', filter: { $or: [{ group: { $eq: 'g0' } }, { rank: { $gte: '3' } }] }, passes: (path) => groupOf(path) === 'g0' || numberOf(path) % 4 >= 3 },
    // Not answerable from the metadata index: every match is ranked, then filtered.
    { name: '$nin (every match ranked)', filter: { group: { $nin: ['g0', 'g1', 'g2', 'g4', 'g5'] } }, passes: (path) => groupOf(path) === 'g3' },
    { name: 'nothing passes', filter: { group: { $eq: 'none' } }, passes: () => false },
  ];
  for (const [name, kind] of Object.entries(KINDS)) {
    for (const { name: filterName, filter, passes } of filters) {
      test(`${name}, ${filterName}: the whole collection's ranking, keeping the documents that pass`, async () => {
        const all = await query(kind, null, kind.most);
        const expected = all.filter((row) => passes(row.path));
        const filtered = await query(kind, filter, kind.most);
        // All the matches, or (snippets: at most 128 a query) the passing ones among the best 128.
        if (all.length < kind.most) expect(filtered).toEqual(expected);
        else expect(filtered.slice(0, expected.length)).toEqual(expected);
        expect(await query(kind, filter, 3)).toEqual(expected.slice(0, 3));
      });
    }
  }
});

test('a filter that no document can pass (an empty $in, an empty $or) answers no rows', async () => {
  for (const filter of [{ group: { $in: [] } }, { $or: [] }, { $and: [{ group: { $eq: 'g1' } }, { 'list:tags': { $in: [] } }] }]) {
    for (const kind of Object.values(KINDS)) expect(await query(kind, filter, 3)).toEqual([]);
  }
});


// The plan as Sift's SQLite has it: without statistics (nothing runs ANALYZE on the main file).
// Without the `+` before collection_id, SQLite reads the collection's documents through
// documents_collection_status and checks each against the filter.
test.runIf(process.env.SIFT_TEST_DIALECT !== 'postgres')('the rows of the documents passing a filter are found by the documents seq, not by scanning the collection (SQLite plan)', async () => {
  const { collectionId } = await h.database.db.selectFrom('collections').select('id as collectionId').where('name', '=', collection).executeTakeFirstOrThrow();
  for (const filter of [{ group: { $eq: 'g3' } }, { $and: [{ group: { $eq: 'g2' } }, { rank: { $ne: '0' } }] }]) {
    const node = parseMetadataFilter(filter)!;
    const candidates = filterCandidates(node, collectionId)!;
    for (const granularity of GRANULARITIES) {
      const plan = await sql<{ detail: string }>`explain query plan select count(*) from (${passingRows(granularity, node, collectionId, candidates)} limit 2001)`.execute(h.database.db);
      const details = plan.rows.map((row) => row.detail);
      expect(details.some((detail) => /^SEARCH d USING INTEGER PRIMARY KEY/.test(detail)), `${granularity}: ${details.join(' | ')}`).toBe(true);
      expect(details.filter((detail) => /\bd\b.*documents_collection|^SCAN d\b/.test(detail)), granularity).toEqual([]);
    }
  }
});
