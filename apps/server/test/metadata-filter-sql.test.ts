import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import * as metadataByCollection from '../src/db/migrations/012_metadata_by_collection.ts';
import { filterCandidates } from '../src/engine/search/filter.ts';
import { filteredDocuments, searchIndex } from '../src/engine/search/index.ts';
import { matchesMetadata, parseMetadataFilter } from '../src/domain/metadata-filter.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * The SQL the filter compiles to (engine/search/filter.ts) selects exactly the documents the
 * in-memory reference (matchesMetadata) accepts, for random metadata and random filters, on
 * whichever dialect the harness runs.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
let collectionId: string;
const values = ['a', 'b', 'c', 'ab', 'B', 'é'];
const documents: Record<string, string | string[]>[] = Array.from({ length: 40 }, (_, i) => {
  const metadata: Record<string, string | string[]> = {};
  if (i % 3 !== 0) metadata.x = values[i % values.length]!;
  if (i % 4 !== 1) metadata.y = values[(i * 7) % values.length]!;
  if (i % 5 !== 2) metadata['list:t'] = [values[i % values.length]!, values[(i + 2) % values.length]!];
  return metadata;
});

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call('/v1/collections/add-collection', { collection_name: 'filters' }, f.keyA);
  for (const [i, metadata] of documents.entries()) {
    const response = await h.call('/v1/documents/add-document', { collection_name: 'filters', path: `d${String(i).padStart(2, '0')}`, content: { type: 'text', text: `doc ${i}` }, metadata }, f.keyA);
    expect(response.status).toBe(201);
  }
  // Another organization's collection with the same metadata: never read by the first one's filters.
  await h.call('/v1/collections/add-collection', { collection_name: 'filters' }, f.keyB);
  for (const [i, metadata] of documents.entries()) {
    const response = await h.call('/v1/documents/add-document', { collection_name: 'filters', path: `d${String(i).padStart(2, '0')}`, content: { type: 'text', text: `doc ${i}` }, metadata }, f.keyB);
    expect(response.status).toBe(201);
  }
  await f.workers.idle();
  collectionId = (
    await h.database.db.selectFrom('collections').select('id').where('name', '=', 'filters').where('organization_id', '=', f.organizationA).executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

const value = fc.constantFrom(...values, 'zz');
const scalar = fc.record({ key: fc.constantFrom('x', 'y', 'missing'), op: fc.constantFrom('$eq', '$ne', '$gt', '$gte', '$lt', '$lte'), value }).map(({ key, op, value }) => ({ [key]: { [op]: value } }));
const set = fc
  .record({ key: fc.constantFrom('x', 'list:t', 'list:missing'), op: fc.constantFrom('$in', '$nin'), values: fc.array(value, { maxLength: 3 }) })
  .map(({ key, op, values }) => ({ [key]: { [op]: values } }));
const filter: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    set,
    fc.array(tie('node'), { maxLength: 3 }).map((children) => ({ $and: children })),
    fc.array(tie('node'), { maxLength: 3 }).map((children) => ({ $or: children })),
  ),
})).node;

test('the SQL filter selects exactly what the reference semantics accept', async () => {
  await fc.assert(
    fc.asyncProperty(filter, async (raw) => {
      const parsed = parseMetadataFilter(raw)!;
      const rows = await filteredDocuments(h.database, collectionId, parsed, 1000);
      const expected = documents.flatMap((metadata, i) => (matchesMetadata(parsed, metadata) ? [`d${String(i).padStart(2, '0')}`] : []));
      expect(rows.map((row) => row.path)).toEqual(expected);
    }),
    { numRuns: 150 },
  );
});

test('a search with the filter keeps exactly the documents the reference semantics accept, whichever path answers it', async () => {
  const index = searchIndex(h.database);
  await fc.assert(
    fc.asyncProperty(filter, async (raw) => {
      const parsed = parseMetadataFilter(raw)!;
      // Every document holds the word "doc": the search matches them all, and the filter decides.
      const hits = await index.topDocuments({ collectionId, query: 'doc', k: 1000, filter: parsed });
      const expected = documents.flatMap((metadata, i) => (matchesMetadata(parsed, metadata) ? [`d${String(i).padStart(2, '0')}`] : []));
      expect(hits.map((hit) => hit.path).sort()).toEqual(expected);
    }),
    // Always among the runs: an index-answered condition beside one it cannot answer (the candidates
    // are a superset, checked on each document), and sets that nothing can pass.
    {
      numRuns: 150,
      examples: [
        [{ $and: [{ x: { $eq: 'b' } }, { y: { $ne: 'b' } }] }],
        [{ x: { $in: [] } }],
        [{ $or: [] }],
        // $ne and $nin alone: on PostgreSQL, the documents holding the opposite are excluded.
        [{ y: { $ne: 'b' } }],
        [{ missing: { $ne: 'a' } }],
        [{ 'list:t': { $nin: ['b', 'c'] } }],
        [{ x: { $nin: [] } }],
      ],
    },
  );
});

/** The collections whose documents a filter's candidates (read through the metadata index) come from. */
async function candidateCollections(raw: Record<string, unknown>): Promise<string[]> {
  const candidates = filterCandidates(parseMetadataFilter(raw)!, collectionId)!.seqs;
  const { rows } = await sql<{ collection_id: string }>`
    select distinct d.collection_id from documents d where d.seq in (select document_seq from (${candidates}) c)`.execute(h.database.db);
  return rows.map((row) => row.collection_id);
}

const indexedFilters = [{ x: { $eq: 'b' } }, { 'list:t': { $in: ['b', 'c'] } }, { $or: [{ x: { $eq: 'b' } }, { y: { $gte: 'b' } }] }, { $and: [{ x: { $lt: 'c' } }, { y: { $ne: 'a' } }] }];

test("a filter reads the queried collection's metadata only, not another organization's with the same pairs", async () => {
  for (const raw of indexedFilters) expect(await candidateCollections(raw)).toEqual([collectionId]);
});

/** Metadata rows whose collection or document seq is not their document's. */
async function misattributedMetadata(): Promise<number> {
  const row = await h.database.db
    .selectFrom('document_metadata as m')
    .innerJoin('documents as d', 'd.id', 'm.document_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('m.collection_id', '!=', eb.ref('d.collection_id')), eb('m.document_seq', '!=', eb.ref('d.seq'))]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

test("metadata written by an upload, an overwrite and an update names its document's collection and seq; a filter finds it", async () => {
  const add = (metadata: Record<string, string>, overwrite: boolean) =>
    h.call('/v1/documents/add-document', { collection_name: 'filters', path: 'moved', content: { type: 'text', text: 'doc moved' }, metadata, overwrite }, f.keyB);
  expect((await add({ x: 'first' }, false)).status).toBe(201);
  expect((await add({ x: 'second' }, true)).status).toBe(200);
  expect((await h.call('/v1/documents/update-document', { collection_name: 'filters', path: 'moved', metadata: { x: 'third' } }, f.keyB)).status).toBe(200);
  await f.workers.idle();
  expect(await misattributedMetadata()).toBe(0);
  const other = (await h.database.db.selectFrom('collections').select('id').where('name', '=', 'filters').where('organization_id', '=', f.organizationB).executeTakeFirstOrThrow()).id;
  const hits = await searchIndex(h.database).topDocuments({ collectionId: other, query: 'doc', k: 10, filter: parseMetadataFilter({ x: { $eq: 'third' } })! });
  expect(hits.map((hit) => hit.path)).toEqual(['moved']);
});

test('migration 012 gives the metadata rows already stored their collection and document seq; filters answer the same after it', async () => {
  const before = await filteredDocuments(h.database, collectionId, parseMetadataFilter({ x: { $eq: 'b' } })!, 1000);
  await metadataByCollection.down(h.database.db as unknown as Kysely<unknown>);
  await metadataByCollection.up(h.database.db as unknown as Kysely<unknown>);
  expect(await misattributedMetadata()).toBe(0);
  for (const raw of indexedFilters) expect(await candidateCollections(raw)).toEqual([collectionId]);
  expect(await filteredDocuments(h.database, collectionId, parseMetadataFilter({ x: { $eq: 'b' } })!, 1000)).toEqual(before);
});
