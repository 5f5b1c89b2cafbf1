import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { PreparedStatementsClient } from '../src/db/prepared-statements-client.ts';
import type { FilterNode } from '../src/engine/search/filter-node.ts';
import { addDocumentEvent } from '../src/domain/usage-events.ts';
import { createEngine } from '../src/engine/engine.ts';
import { fileHarness } from './support/file-harness.ts';

// PostgreSQL: searches run on connections of their own (SIFT_SEARCH_PIPELINES and
// SIFT_SEARCH_CONNECTIONS, db/database.ts), so
// work holding every connection of the shared pool (ingestion, uploads, a slow report) never
// leaves a search waiting for a connection, and 50 searching clients never take them all. And
// idle ingestion gives the planner statistics of search tables that changed much (postgres.ts).
// Search statements are prepared once per connection and planned once (a filtered one each time).

const postgres = process.env.SIFT_TEST_DIALECT === 'postgres';
const t = fileHarness({ when: postgres });

test.runIf(postgres)('a search answers while every connection of the shared pool is busy', async () => {
  await t.h.call('/v1/collections/add-collection', { collection_name: 'pool' }, t.f.keyA);
  await t.h.call('/v1/documents/add-document', { collection_name: 'pool', path: 'a.txt', content: { type: 'text', text: 'The harbor lantern.' }, metadata: {} }, t.f.keyA);
  await t.f.workers.idle();
  const { id: collectionId } = await t.h.database.db.selectFrom('collections').select('id').where('name', '=', 'pool').executeTakeFirstOrThrow();

  let anyDone = false;
  // More sleepers than the shared pool has connections (10): all of them busy, some waiting.
  const sleepers = Promise.all(Array.from({ length: 12 }, () => sql`select pg_sleep(1.5)`.execute(t.h.database.db).then(() => (anyDone = true))));
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(t.h.database.pool!.waitingCount).toBeGreaterThan(0);
  const hits = await t.h.engine.search.topSnippets({ collectionId, query: 'lantern', k: 5, filter: null, granularity: 'fine', includeMetadata: false });
  // Answered before any connection of the shared pool was free.
  expect(anyDone).toBe(false);
  expect(hits.map((hit) => hit.content)).toEqual(['The harbor lantern.']);
  await sleepers;
});

test.runIf(postgres)('once ingestion is idle, tables searches read that changed much are vacuumed and have statistics', async () => {
  // Vacuumed, their pages are all-visible and a search reads postings, and a filter the metadata,
  // from the index alone (migration 014); analyzed, a filter's metadata lookup uses its value.
  // The collection's postings table is made with its first document: not yet vacuumed nor analyzed.
  const upkept = async (tables: string[]) =>
    (
      await sql<{ table: string; analyzed: Date | null; vacuumed: Date | null }>`select relname as table, last_analyze as analyzed, last_vacuum as vacuumed from pg_stat_user_tables where relname = any(${tables}::text[]) and schemaname = current_schema() order by relname`.execute(
        t.h.database.db,
      )
    ).rows;
  const before = await upkept(['document_metadata']);
  // 600 distinct words, four granularities: 2,400 postings, more than a tenth of the table and 1,000;
  // 2,000 values of a list: as many metadata rows, more than 1,000 and a tenth of the table.
  const text = Array.from({ length: 600 }, (_, i) => `word${i.toString(36)}x`).join(' ');
  const tags = Array.from({ length: 2_000 }, (_, i) => `t${i}`);
  await t.h.call('/v1/collections/add-collection', { collection_name: 'upkeep' }, t.f.keyA);
  await t.h.call('/v1/documents/add-document', { collection_name: 'upkeep', path: 'words.txt', content: { type: 'text', text }, metadata: { 'list:tags': tags } }, t.f.keyA);
  await t.f.workers.idle();
  const { rows: keys } = await sql<{ key: string }>`select k.key from search_collections k join collections c on c.id = k.collection_id where c.name = 'upkeep'`.execute(t.h.database.db);
  const tables = ['document_metadata', `search_postings_${keys[0]!.key}`];
  const time = (at: Date | null) => at?.getTime() ?? 0;
  const since = (table: string) => before.find((row) => row.table === table);
  await expect
    .poll(async () => {
      const now = await upkept(tables);
      return now.map((row) => ({ table: row.table, analyzed: time(row.analyzed) > time(since(row.table)?.analyzed ?? null), vacuumed: time(row.vacuumed) > time(since(row.table)?.vacuumed ?? null) }));
    }, { timeout: 10_000, interval: 200 })
    .toEqual(tables.sort().map((table) => ({ table, analyzed: true, vacuumed: true })));
});

test.runIf(postgres)('a search is prepared once per connection and planned once, with a filter or without', async () => {
  await t.h.call('/v1/collections/add-collection', { collection_name: 'plans' }, t.f.keyA);
  for (const [path, text, colour] of [
    ['a.txt', 'The harbor lantern burns.', 'red'],
    ['b.txt', 'A lantern by the harbor wall.', 'blue'],
  ] as const) {
    await t.h.call('/v1/documents/add-document', { collection_name: 'plans', path, content: { type: 'text', text }, metadata: { colour } }, t.f.keyA);
  }
  await t.f.workers.idle();
  const { id: collectionId } = await t.h.database.db.selectFrom('collections').select('id').where('name', '=', 'plans').executeTakeFirstOrThrow();
  // One connection of each kind, so the statements each prepared are those pg_prepared_statements shows on it.
  const database = await openDatabase({ dataDir: t.h.config.dataDir, databaseUrl: t.h.config.databaseUrl, searchConnections: 1, searchPipelines: 1 });
  try {
    const index = createEngine({ database, files: t.h.files, usage: addDocumentEvent }).search;
    const plain = { collectionId, query: 'harbor lantern', k: 5, filter: null, granularity: 'fine' as const, includeMetadata: false };
    const first = await index.topSnippets(plain);
    for (let i = 0; i < 4; i++) expect(await index.topSnippets(plain)).toEqual(first);
    const colour = (value: string) => index.topSnippets({ ...plain, filter: { kind: 'compare', key: 'colour', operator: '$eq', value } });
    expect((await colour('red')).map((hit) => hit.path)).toEqual(['a.txt']);
    expect((await colour('blue')).map((hit) => hit.path)).toEqual(['b.txt']);
    expect((await colour('red')).map((hit) => hit.path)).toEqual(['a.txt']);
    type Prepared = { statement: string; generic_plans: number; custom_plans: number };
    const preparedQuery = 'select statement, generic_plans, custom_plans from pg_prepared_statements';
    const classified = (rows: Prepared[]) =>
      rows
        .filter((row) => /"search_postings_\d+"/.test(row.statement))
        .map((row) => [/document_metadata/.test(row.statement) ? 'filtered' : 'plain', row.generic_plans, row.custom_plans]);
    const pipelined = await database.searchPools!.pipelined.connect();
    const onPipelined = (await pipelined.query<Prepared>(preparedQuery, [])).rows;
    pipelined.release();
    // The unfiltered search, on the pipelined connection: one statement, run five times on one
    // plan; the filtered one, on the filtered searches' pool, run three times (two values) on one plan.
    expect(classified(onPipelined)).toEqual([['plain', 5, 0]]);
    expect(classified((await sql<Prepared>`${sql.raw(preparedQuery)}`.execute(database.filteredSearchesDb!)).rows)).toEqual([['filtered', 3, 0]]);
  } finally {
    await database.destroy();
  }
});

test.runIf(postgres)('a connection keeps at most 256 statements prepared; past them, statements still answer, unprepared', async () => {
  const client = new PreparedStatementsClient({ connectionString: t.h.config.databaseUrl });
  await client.connect();
  try {
    for (let i = 0; i < 300; i++) {
      const { rows } = await client.query(`select $1::int + ${i} as n`, [1]);
      expect(rows[0].n).toBe(i + 1);
    }
    const prepared = async () => Number((await client.query('select count(*) as n from pg_prepared_statements')).rows[0].n);
    expect(await prepared()).toBe(256);
    // One of the first 256 runs on its prepared statement again; one past them is not kept.
    expect((await client.query('select $1::int + 7 as n', [1])).rows[0].n).toBe(8);
    expect((await client.query('select $1::int + 299 as n', [1])).rows[0].n).toBe(300);
    expect(await prepared()).toBe(256);
  } finally {
    await client.end();
  }
});

test.runIf(postgres)('a filter keeps its documents by the cheapest path the metadata index allows, each answering the same', async () => {
  await t.h.call('/v1/collections/add-collection', { collection_name: 'many' }, t.f.keyA);
  for (const [path, text, tier] of [
    ['gold-1.txt', 'The harbor lantern burns.', 'gold'],
    ['gold-2.txt', 'A lantern by the harbor wall, a lantern.', 'gold'],
    ['tin.txt', 'The harbor lantern, tin.', 'tin'],
  ] as const) {
    await t.h.call('/v1/documents/add-document', { collection_name: 'many', path, content: { type: 'text', text }, metadata: { tier } }, t.f.keyA);
  }
  await t.f.workers.idle();
  const { id: collectionId, organization_id: organizationId } = await t.h.database.db
    .selectFrom('collections')
    .select(['id', 'organization_id'])
    .where('name', '=', 'many')
    .executeTakeFirstOrThrow();
  // 10,000 more gold documents, with nothing indexed (none matches a query).
  await sql`insert into documents (id, organization_id, collection_id, path, metadata, index_status, source_type, size, file_hash, created_at, updated_at)
    select 'filler-' || i, ${organizationId}, ${collectionId}, 'filler/' || i, '{"tier":"gold"}', 'indexed', 'text', 0, 'none', '2026-01-01', '2026-01-01'
    from generate_series(1, 10000) i`.execute(t.h.database.db);
  await sql`insert into document_metadata (document_id, collection_id, document_seq, key, value)
    select id, collection_id, seq, 'tier', 'gold' from documents where collection_id = ${collectionId} and path like 'filler/%'`.execute(t.h.database.db);
  const database = await openDatabase({ dataDir: t.h.config.dataDir, databaseUrl: t.h.config.databaseUrl, searchConnections: 1 });
  // How the statement last prepared on the one connection kept the filter's documents.
  const seen = new Set<string>();
  const lastPath = async () => {
    const statements = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.filteredSearchesDb!);
    const added = statements.rows.map((row) => row.statement).filter((statement) => statement.includes('search_postings') && !seen.has(statement));
    added.forEach((statement) => seen.add(statement));
    return added.map((statement) =>
      /not coalesce\(w\.document_seq in/.test(statement)
        ? 'excluded'
        : /coalesce\(w\.document_seq in/.test(statement)
          ? 'looked up'
          : /document_seq = any\(/.test(statement)
            ? 'array'
            : /exists \(select 1 from documents d/.test(statement)
              ? 'checked'
              : 'other',
    );
  };
  const search = (filter: FilterNode) => createEngine({ database, files: t.h.files, usage: addDocumentEvent }).search.topDocuments({ collectionId, query: 'harbor lantern', k: 5, filter });
  try {
    // 10,002 pass: each match's document is checked.
    expect((await search({ kind: 'compare', key: 'tier', operator: '$eq', value: 'gold' })).map((hit) => hit.path)).toEqual(['gold-2.txt', 'gold-1.txt']);
    expect(await lastPath()).toEqual(['checked']);
    // One passes: looked up among those the metadata index holds.
    expect((await search({ kind: 'compare', key: 'tier', operator: '$eq', value: 'tin' })).map((hit) => hit.path)).toEqual(['tin.txt']);
    expect(await lastPath()).toEqual(['looked up']);
    // $ne: the one document failing it is excluded; with 10,002 failing, each match is checked.
    expect((await search({ kind: 'compare', key: 'tier', operator: '$ne', value: 'tin' })).map((hit) => hit.path)).toEqual(['gold-2.txt', 'gold-1.txt']);
    expect(await lastPath()).toEqual(['excluded']);
    expect((await search({ kind: 'set', key: 'tier', operator: '$nin', values: ['gold'] })).map((hit) => hit.path)).toEqual(['tin.txt']);
    expect(await lastPath()).toEqual(['checked']);
    // A superset (an indexed condition beside a $ne): those passing are checked once, handed over as an array.
    const superset: FilterNode = { kind: 'and', children: [{ kind: 'compare', key: 'tier', operator: '$eq', value: 'tin' }, { kind: 'compare', key: 'tier', operator: '$ne', value: 'gold' }] };
    expect((await search(superset)).map((hit) => hit.path)).toEqual(['tin.txt']);
    expect(await lastPath()).toEqual(['array']);
  } finally {
    await database.destroy();
  }
});

test.runIf(postgres)('page and snippet hits name their documents, with metadata only when asked, and never a deleted one', async () => {
  await t.h.call('/v1/collections/add-collection', { collection_name: 'named' }, t.f.keyA);
  const add = (path: string, text: string, overwrite = false) =>
    t.h.call('/v1/documents/add-document', { collection_name: 'named', path, content: { type: 'text', text }, metadata: { shelf: path }, overwrite }, t.f.keyA);
  await add('north.txt', 'The north beacon burns.');
  await add('south.txt', 'The south beacon sleeps.');
  await t.f.workers.idle();
  const snippets = async (include: boolean) =>
    (await t.h.call('/v1/queries/top-snippets', { collection_name: 'named', query: 'beacon', k: 5, precise_responses: true, include_document_metadata: include }, t.f.keyA)).body;
  const plain = await snippets(false);
  const withMetadata = await snippets(true);
  expect(plain.results).toEqual(withMetadata.results);
  expect(plain.results.map((r: { path: string }) => r.path).sort()).toEqual(['north.txt', 'south.txt']);
  expect(plain.document_results.map((r: { metadata: unknown }) => r.metadata)).toEqual([null, null]);
  expect(withMetadata.document_results.map((r: { path: string; metadata: unknown }) => [r.path, r.metadata]).sort()).toEqual([
    ['north.txt', { shelf: 'north.txt' }],
    ['south.txt', { shelf: 'south.txt' }],
  ]);
  const pages = await t.h.call('/v1/queries/top-pages', { collection_name: 'named', query: 'beacon', k: 5 }, t.f.keyA);
  expect(pages.body.results.map((r: { path: string }) => r.path).sort()).toEqual(['north.txt', 'south.txt']);

  // The server has read both paths; one document deleted, the other overwritten: same path, new text.
  expect((await t.h.call('/v1/documents/delete-document', { collection_name: 'named', path: 'north.txt' }, t.f.keyA)).status).toBe(200);
  await add('south.txt', 'The south beacon wakes.', true);
  await t.f.workers.idle();
  const after = await snippets(false);
  expect(after.results.map((r: { path: string; content: string }) => [r.path, r.content])).toEqual([['south.txt', 'The south beacon wakes.']]);
});

test.runIf(postgres)('documents deleted and overwritten out of blocks they share rank as if the survivors alone were indexed', async () => {
  // Blocks hold the postings of every document an indexing transaction wrote: deleting or
  // overwriting some of them, several at once, must leave exactly the others' postings.
  const words = ['heron', 'marsh', 'reed', 'tide', 'lantern', 'harbor', 'gull', 'kelp'];
  const textOf = (i: number, version = 0) => Array.from({ length: 40 }, (_, j) => words[(i * 3 + j * (j % 3 + 1) + version) % words.length]).join(' ');
  const add = (collection: string, path: string, text: string, overwrite = false) =>
    t.h.call('/v1/documents/add-document', { collection_name: collection, path, content: { type: 'text', text }, overwrite }, t.f.keyA);
  await t.h.call('/v1/collections/add-collection', { collection_name: 'shared-blocks' }, t.f.keyA);
  await t.h.call('/v1/collections/add-collection', { collection_name: 'survivors' }, t.f.keyA);
  await Promise.all(Array.from({ length: 16 }, (_, i) => add('shared-blocks', `d${i}.txt`, textOf(i))));
  await t.f.workers.idle();
  const deleted = [1, 4, 5, 9, 12, 15];
  const overwritten = [2, 7];
  const answered = await Promise.all([
    ...deleted.map((i) => t.h.call('/v1/documents/delete-document', { collection_name: 'shared-blocks', path: `d${i}.txt` }, t.f.keyA)),
    ...overwritten.map((i) => add('shared-blocks', `d${i}.txt`, textOf(i, 1), true)),
  ]);
  expect(answered.map((response) => [response.status, response.body])).toEqual([...deleted.map(() => [200, expect.anything()]), ...overwritten.map(() => [200, expect.anything()])]);
  for (let i = 0; i < 16; i++) if (!deleted.includes(i)) await add('survivors', `d${i}.txt`, textOf(i, overwritten.includes(i) ? 1 : 0));
  await t.f.workers.idle();
  for (const query of ['heron tide', 'gull kelp lantern', 'marsh']) {
    for (const route of ['top-documents', 'top-snippets'] as const) {
      const ask = async (collection: string) => (await t.h.call(`/v1/queries/${route}`, { collection_name: collection, query, k: 16 }, t.f.keyA)).body.results.map((r: { path: string; score: number }) => [r.path, r.score]);
      const survivors = await ask('survivors');
      expect(survivors.length).toBeGreaterThan(0);
      expect(await ask('shared-blocks')).toEqual(survivors);
    }
  }
});

test.runIf(postgres)("idle upkeep merges a collection's small blocks and gives their space back, while deletions and overwrites rank as if only the survivors were indexed", async () => {
  // Documents indexed one batch at a time write a block each per granularity; 160 made-up words a
  // document make merging delete more rows than the table then holds, so it is copied as well.
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo'];
  const word = (n: number) => syllables[n % 8]! + syllables[Math.floor(n / 8) % 8]! + syllables[Math.floor(n / 64) % 8]!;
  const textOf = (i: number, version = 0) => Array.from({ length: 160 }, (_, j) => word((i * 37 + j * (j % 5 + 1) + version * 11) % 512)).join(' ');
  const add = (collection: string, path: string, text: string, overwrite = false) =>
    t.h.call('/v1/documents/add-document', { collection_name: collection, path, content: { type: 'text', text }, overwrite }, t.f.keyA);
  await t.h.call('/v1/collections/add-collection', { collection_name: 'merged' }, t.f.keyA);
  await t.h.call('/v1/collections/add-collection', { collection_name: 'merged-survivors' }, t.f.keyA);
  const topDocuments = async (collection: string, query: string) =>
    (await t.h.call('/v1/queries/top-documents', { collection_name: collection, query, k: 32 }, t.f.keyA)).body.results.map((r: { path: string; score: number }) => [r.path, r.score]);
  for (let i = 0; i < 24; i++) {
    await add('merged', `d${i}.txt`, textOf(i));
    await t.f.workers.idle();
    // Its statement prepared on the search connections before the table is copied, and used after.
    if (i === 1) expect(await topDocuments('merged', word(37))).not.toEqual([]);
  }
  const { rows: keys } = await sql<{ key: string }>`select k.key from search_collections k join collections c on c.id = k.collection_id where c.name = 'merged'`.execute(t.h.database.db);
  const key = Number(keys[0]!.key);
  const table = `search_postings_${key}`;
  const layout = async () => {
    await t.h.engine.search.upkeepStep();
    const { rows } = await sql<{ blocks: string; dead: string; heap: string; live: string }>`
      select (select count(*) from search_block_sizes where collection_key = ${key}) as blocks,
             (select n_tup_del from pg_stat_user_tables where relname = ${table} and schemaname = current_schema()) as dead,
             pg_relation_size(${table}::regclass) as heap, (select coalesce(sum(pg_column_size(p.*)), 0) from ${sql.table(table)} p) as live`.execute(t.h.database.db);
    const { blocks, dead, heap, live } = rows[0]!;
    return { blocks: Number(blocks), copied: Number(dead) === 0, tight: Number(heap) <= 2 * Number(live) + 16_384 };
  };
  // One block per granularity, in a table copied anew: no dead rows, its pages about its live rows.
  // Three: one-page documents' postings serve as both their documents' and their pages' (ONE_PAGE_DOCUMENT).
  await expect.poll(layout, { timeout: 30_000, interval: 200 }).toEqual({ blocks: 3, copied: true, tight: true });

  // Deletions and overwrites while more blocks are merged: new small blocks, then both at once.
  for (let i = 24; i < 32; i++) {
    await add('merged', `d${i}.txt`, textOf(i));
    await t.f.workers.idle();
  }
  const deleted = [1, 4, 5, 9, 12, 15, 25, 30];
  const overwritten = [2, 7, 26];
  const answered = await Promise.all([
    ...deleted.map((i) => t.h.call('/v1/documents/delete-document', { collection_name: 'merged', path: `d${i}.txt` }, t.f.keyA)),
    ...overwritten.map((i) => add('merged', `d${i}.txt`, textOf(i, 1), true)),
    ...Array.from({ length: 4 }, () => t.h.engine.search.upkeepStep()),
  ]);
  expect(answered.slice(0, deleted.length + overwritten.length).map((response) => (response as { status: number }).status)).toEqual([...deleted, ...overwritten].map(() => 200));
  for (let i = 0; i < 32; i++) if (!deleted.includes(i)) await add('merged-survivors', `d${i}.txt`, textOf(i, overwritten.includes(i) ? 1 : 0));
  await t.f.workers.idle();
  await expect.poll(async () => (await layout()).blocks, { timeout: 30_000, interval: 200 }).toBe(3);
  for (const query of [word(3), `${word(40)} ${word(300)}`, `${word(7)} ${word(77)} ${word(177)}`]) {
    for (const route of ['top-documents', 'top-snippets'] as const) {
      const ask = async (collection: string) =>
        route === 'top-documents' ? topDocuments(collection, query) : (await t.h.call(`/v1/queries/${route}`, { collection_name: collection, query, k: 32 }, t.f.keyA)).body.results.map((r: { path: string; score: number }) => [r.path, r.score]);
      const survivors = await ask('merged-survivors');
      expect(survivors.length).toBeGreaterThan(0);
      expect(await ask('merged')).toEqual(survivors);
    }
  }
});
