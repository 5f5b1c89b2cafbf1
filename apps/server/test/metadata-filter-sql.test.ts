import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { filteredDocuments } from '../src/db/search/index.ts';
import { matchesMetadata, parseMetadataFilter } from '../src/domain/metadata-filter.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * The SQL the filter compiles to (db/search/filter.ts) selects exactly the documents the
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
  await f.workers.idle();
  collectionId = (await h.database.db.selectFrom('collections').select('id').where('name', '=', 'filters').executeTakeFirstOrThrow()).id;
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
