import { type Kysely, sql } from 'kysely';
import { beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import * as postingsByCollection from '../src/db/migrations/019_postings_by_collection.ts';
import * as postingsInBlocks from '../src/db/migrations/025_postings_in_blocks.ts';
import * as blockSizes from '../src/db/migrations/026_block_sizes.ts';
import * as rowCounts from '../src/db/migrations/027_row_counts.ts';
import * as postingsArraysUnanalyzed from '../src/db/migrations/030_postings_arrays_unanalyzed.ts';
import * as onePageDocuments from '../src/db/migrations/033_one_page_documents.ts';
import { addDocumentEvent } from '../src/domain/usage-events.ts';
import { createEngine } from '../src/engine/engine.ts';
import { fileHarness } from './support/file-harness.ts';
import { SEARCH_QUERIES, searchCorpus } from './search-corpus.ts';

// PostgreSQL: each collection's postings in a table of its own (migration 019), so a search
// reads only its collection's index whatever other organizations hold; in blocks (migration 025).

const postgres = process.env.SIFT_TEST_DIALECT === 'postgres';
const t = fileHarness({ when: postgres });
beforeAll(async () => {
  if (!postgres) return;
  for (const [key, collection, corpus] of [
    [t.f.keyA, 'mine', searchCorpus(3, 12)],
    [t.f.keyB, 'theirs', searchCorpus(5, 30)],
  ] as const) {
    await t.h.call('/v1/collections/add-collection', { collection_name: collection }, key);
    for (const document of corpus) {
      await t.h.call('/v1/documents/add-document', { collection_name: collection, path: document.path, content: { type: 'text-pages', pages: document.pages }, metadata: {} }, key);
    }
  }
  await t.f.workers.idle();
}, 120_000);

const collectionOf = async (name: string) => (await t.h.database.db.selectFrom('collections').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

/** The postings tables of the schema. */
async function postingsTables(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname ~ '^search_postings' order by relname`.execute(t.h.database.db);
  return rows.map((row) => row.name);
}

/** The statistics target of each postings table's arrays (-1 the default, 0 none gathered), by table. */
async function arrayStatisticsTargets(): Promise<Record<string, number[]>> {
  const { rows } = await sql<{ name: string; targets: number[] }>`
    select c.relname as name, array_agg(coalesce(a.attstattarget, -1)::int order by a.attname) as targets
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = current_schema()::regnamespace and c.relname ~ '^search_postings_[0-9]+$'
      and a.attname in ('row_seqs', 'document_seqs', 'tfs', 'lengths')
    group by c.relname`.execute(t.h.database.db);
  return Object.fromEntries(rows.map((row) => [row.name, row.targets]));
}

/** Every query kind's hits for the corpus queries, in a collection, through a database handle. */
async function answers(database: typeof t.h.database, collectionId: string) {
  const index = createEngine({ database, files: t.h.files, usage: addDocumentEvent }).search;
  const results: unknown[] = [];
  for (const query of SEARCH_QUERIES) {
    const request = { collectionId, query, k: 10, filter: null };
    results.push(
      await index.topDocuments(request),
      await index.topPages({ ...request, includeContent: true, includeMetadata: false }),
      await index.topSnippets({ ...request, granularity: 'coarse', includeMetadata: true }),
      await index.topSnippets({ ...request, granularity: 'fine', includeMetadata: false }),
      await index.topDocuments({ ...request, filter: { kind: 'compare', key: 'none', operator: '$ne', value: 'x' } }),
    );
  }
  return results;
}

test.runIf(postgres)("a search reads its own collection's postings table only; an empty collection has none", async () => {
  const keyOf = async (id: string) => (await sql<{ key: string }>`select key from search_collections where collection_id = ${id}`.execute(t.h.database.db)).rows[0]!.key;
  const mine = await keyOf(await collectionOf('mine'));
  const theirs = await keyOf(await collectionOf('theirs'));
  await t.h.call('/v1/collections/add-collection', { collection_name: 'empty' }, t.f.keyA);
  expect(await postingsTables()).toEqual([`search_postings_${mine}`, `search_postings_${theirs}`].sort());
  expect(await answers(t.h.database, await collectionOf('empty'))).toEqual(Array(SEARCH_QUERIES.length * 5).fill([]));
  // The search statements prepared on the pipelined connection name one collection's table each.
  const index = t.h.engine.search;
  await index.topDocuments({ collectionId: await collectionOf('mine'), query: SEARCH_QUERIES[0]!, k: 5, filter: null });
  const client = await t.h.database.searchPools!.pipelined.connect();
  const { rows } = await client.query<{ statement: string }>('select statement from pg_prepared_statements where statement like $1', ['%unnest(%']);
  client.release();
  expect(rows.length).toBeGreaterThan(0);
  for (const { statement } of rows) expect(new Set(statement.match(/search_postings_\d+/g))).toEqual(new Set([`search_postings_${mine}`]));
});

test.runIf(postgres)('a database with postings in one table for all collections migrates to a table each, in blocks, and searches answer the same', async () => {
  // Migrations run before a server works: its ingestion loops' upkeep must not rewrite blocks the test is migrating.
  await t.f.workers.stop();
  const ids = [await collectionOf('mine'), await collectionOf('theirs')];
  const before = [await answers(t.h.database, ids[0]!), await answers(t.h.database, ids[1]!)];
  expect(before[0]!.flat().length).toBeGreaterThan(0);
  const tables = await postingsTables();
  const stats = async () => (await sql<{ collection_id: string; granularity: string; rows: string; tokens: string }>`
    select collection_id, granularity, sum(rows) as rows, sum(tokens) as tokens from search_stats group by 1, 2 order by 1, 2`.execute(t.h.database.db)).rows;
  const statsBefore = await stats();
  const db = t.h.database.db as unknown as Kysely<unknown>;
  // One-page documents' postings are written once (033, code 4); before it, a document's and a page's.
  const codes = async () => {
    const { rows } = await sql<{ codes: number[] }>`select array_agg(distinct granularity order by granularity) as codes from ${sql.table(tables[0]!)}`.execute(t.h.database.db);
    return rows[0]!.codes;
  };
  expect(await codes()).toEqual([0, 1, 2, 3, 4]);
  await onePageDocuments.down(db);
  await sql`delete from kysely_migration where name = '033_one_page_documents'`.execute(t.h.database.db);
  expect(await codes()).toEqual([0, 1, 2, 3]);
  expect([await answers(t.h.database, ids[0]!), await answers(t.h.database, ids[1]!)]).toEqual(before);
  // Postings tables are made with no statistics gathered on their arrays (030); before it, the default.
  const noArrayStatistics = Object.fromEntries(tables.map((table) => [table, [0, 0, 0, 0]]));
  expect(await arrayStatisticsTargets()).toEqual(noArrayStatistics);
  await postingsArraysUnanalyzed.down(db);
  await sql`delete from kysely_migration where name = '030_postings_arrays_unanalyzed'`.execute(t.h.database.db);
  expect(await arrayStatisticsTargets()).toEqual(Object.fromEntries(tables.map((table) => [table, [-1, -1, -1, -1]])));
  // Search rows counted by document (027): back to a row per page and snippet, each with its length.
  const { rows: counted } = await sql<{ documents: string; rows: string; tokens: string }>`
    select count(distinct document_seq) as documents, sum(rows) as rows, sum(tokens) as tokens from search_rows`.execute(t.h.database.db);
  expect(Number(counted[0]!.documents)).toBeGreaterThan(0);
  await rowCounts.down(db);
  const { rows: each } = await sql<{ rows: string; tokens: string }>`select count(*) as rows, sum(length) as tokens from search_rows`.execute(t.h.database.db);
  expect([Number(each[0]!.rows), Number(each[0]!.tokens)]).toEqual([Number(counted[0]!.rows), Number(counted[0]!.tokens)]);
  await blockSizes.down(db);
  await sql`delete from kysely_migration where name in ('026_block_sizes', '027_row_counts')`.execute(t.h.database.db);
  // The layout before migration 019: one table, a row a posting, each naming its collection's key.
  await postingsInBlocks.down(db);
  await sql`delete from kysely_migration where name = '025_postings_in_blocks'`.execute(t.h.database.db);
  await postingsByCollection.down(t.h.database.db as unknown as Kysely<unknown>);
  await sql`delete from kysely_migration where name = '019_postings_by_collection'`.execute(t.h.database.db);
  expect(await postingsTables()).toEqual(['search_postings']);
  const { rows } = await sql<{ n: number }>`select count(distinct collection_key)::int as n from search_postings`.execute(t.h.database.db);
  expect(rows[0]!.n).toBe(2);

  // A server of this version starting on it migrates it.
  const database = await openDatabase({ dataDir: t.h.config.dataDir, databaseUrl: t.h.config.databaseUrl });
  try {
    expect(await postingsTables()).toEqual(tables);
    expect(await arrayStatisticsTargets()).toEqual(noArrayStatistics);
    expect([await answers(database, ids[0]!), await answers(database, ids[1]!)]).toEqual(before);
    expect(await stats()).toEqual(statsBefore);
    const { rows: again } = await sql<{ rows: string; tokens: string; layout: string }>`
      select sum(rows) as rows, sum(tokens) as tokens, count(*) - 4 * count(distinct document_seq) as layout from search_rows`.execute(t.h.database.db);
    expect({ rows: Number(again[0]!.rows), tokens: Number(again[0]!.tokens), layout: Number(again[0]!.layout) }).toEqual({ rows: Number(counted[0]!.rows), tokens: Number(counted[0]!.tokens), layout: 0 });
    // Deleting a document still takes its postings, from its collection's table.
    const [first] = searchCorpus(3, 12);
    expect((await t.h.call('/v1/documents/delete-document', { collection_name: 'mine', path: first!.path }, t.f.keyA)).status).toBe(200);
    for (const table of tables) {
      const { rows: left } = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(table)} p cross join unnest(p.document_seqs) as x(seq) where not exists (select 1 from documents d where d.seq = x.seq)`.execute(t.h.database.db);
      expect(left[0]!.n).toBe(0);
    }
  } finally {
    await database.destroy();
  }
});

test.runIf(postgres)("deleting a collection drops its postings table, and leaves the others'", async () => {
  const before = await postingsTables();
  expect(before).toHaveLength(2);
  expect((await t.h.call('/v1/collections/delete-collection', { collection_name: 'mine' }, t.f.keyA)).status).toBe(200);
  const after = await postingsTables();
  expect(after).toHaveLength(1);
  expect(before).toContain(after[0]);
  expect((await answers(t.h.database, await collectionOf('theirs'))).flat().length).toBeGreaterThan(0);
});
