import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { FreshStatistics } from '../src/engine/search/postgres-upkeep.ts';
import { fileHarness } from './support/file-harness.ts';

// PostgreSQL: while ingestion runs, the planner's statistics of the tables claims, status counts,
// indexing and searches read are refreshed once they changed by a tenth (postgres-upkeep.ts), at
// most every few seconds, whatever autovacuum does; while it is idle, they are vacuumed too.

const postgres = process.env.SIFT_TEST_DIALECT === 'postgres';
const t = fileHarness({ when: postgres });

test.runIf(postgres)("documents queued in thousands are in the planner's statistics after the next step, and not before its wait", async () => {
  // Nothing claims them meanwhile.
  await t.f.workers.stop();
  await t.h.call('/v1/collections/add-collection', { collection_name: 'queued' }, t.f.keyA);
  let now = Date.now();
  const statistics = new FreshStatistics({ nowMs: () => now });
  const db = t.h.database.db;

  await addDocuments('queued', 1_500, 'not_parsed');
  // Each connection reports its changes to the statistics views within seconds: steps until then find nothing to do.
  const plannedRows = async () => {
    now += 5_000;
    await statistics.step(db);
    return documentsInStatistics();
  };
  await expect.poll(plannedRows, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(1_500);

  // More queued, and a step before the wait is over: the statistics stay as they were...
  await addDocuments('queued', 3_000, 'not_parsed');
  await expect.poll(documentsChangedSinceAnalyzed, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(3_000);
  await statistics.step(db);
  expect(await documentsInStatistics()).toBeLessThan(4_500);
  // ...until the next step after it.
  await expect.poll(plannedRows, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(4_500);
}, 60_000);

test.runIf(postgres)("snippets written in thousands are in the planner's statistics after the next step, so indexing finds a batch's by their documents' index", async () => {
  await t.f.workers.stop();
  await t.h.call('/v1/collections/add-collection', { collection_name: 'snippets' }, t.f.keyA);
  let now = Date.now();
  const statistics = new FreshStatistics({ nowMs: () => now });
  const db = t.h.database.db;
  await addDocuments('snippets', 200, 'indexed');
  await addSnippets('snippets', 20, ['coarse', 'fine']);
  const snippetsInStatistics = async () => {
    now += 5_000;
    await statistics.step(db);
    const { rows } = await sql<{ rows: number }>`select reltuples::float8 as rows from pg_class where oid = 'chunks'::regclass`.execute(db);
    return Number(rows[0]!.rows);
  };
  await expect.poll(snippetsInStatistics, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(8_000);
}, 60_000);

test.runIf(postgres)('idle upkeep leaves a table another connection is vacuuming to it, and vacuums it once that is done', async () => {
  // The workers' own idle upkeep would vacuum chunks first: stopped, and snippets written as indexing writes them.
  await t.f.workers.stop();
  await t.h.call('/v1/collections/add-collection', { collection_name: 'vacuum-lock' }, t.f.keyA);
  const db = t.h.database.db;
  await addDocuments('vacuum-lock', 1, 'indexed');
  await addSnippets('vacuum-lock', 5_000, ['fine']);
  const chunks = async () =>
    (await sql<{ vacuumed: Date | null; stale: boolean }>`select last_vacuum as vacuumed, n_ins_since_vacuum >= 1000 + n_live_tup / 10 as stale
      from pg_stat_user_tables where relname = 'chunks' and schemaname = current_schema()`.execute(db)).rows[0]!;
  // Connections report their writes to the statistics views within a second or so: until then no step finds chunks stale.
  await expect.poll(async () => (await chunks()).stale, { timeout: 10_000, interval: 200 }).toBe(true);
  const before = (await chunks()).vacuumed?.getTime() ?? 0;
  /** Upkeep steps until one finds nothing more to do (merges and copies come before the vacuums). */
  const upkeep = async () => {
    for (let step = 0; step < 20 && (await t.h.engine.search.upkeepStep()); step++);
  };
  // What a vacuum or analyze of chunks by another server holds, until this test lets go.
  await db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection);
    await sql`lock table chunks in share update exclusive mode`.execute(connection);
    try {
      await upkeep();
      expect((await chunks()).vacuumed?.getTime() ?? 0).toBe(before);
    } finally {
      await sql`rollback`.execute(connection);
    }
  });
  const vacuumed = async () => {
    await upkeep();
    return (await chunks()).vacuumed?.getTime() ?? 0;
  };
  await expect.poll(vacuumed, { timeout: 10_000, interval: 200 }).toBeGreaterThan(before);
});

/**
 * Documents of a collection in this status, written as an upload and indexing write them (a few
 * thousand uploads through HTTP would take the test's time).
 */
async function addDocuments(collection: string, count: number, status: 'not_parsed' | 'indexed'): Promise<void> {
  await sql`insert into documents (id, organization_id, collection_id, path, metadata, index_status, source_type, size, file_hash, created_at, updated_at)
    select gen_random_uuid()::text, c.organization_id, c.id, gen_random_uuid()::text, '{}', ${status}, 'text', 10, 'missing', now()::text, now()::text
    from collections c, generate_series(1, ${count}) where c.name = ${collection}`.execute(t.h.database.db);
}

/** `count` snippets of each granularity for every document of a collection, as indexing writes them. */
async function addSnippets(collection: string, count: number, granularities: ('coarse' | 'fine')[]): Promise<void> {
  await sql`insert into chunks (document_seq, granularity, start_index, end_index, page_start, page_end)
    select d.seq, g, n, n + 1, 0, 0 from documents d join collections c on c.id = d.collection_id, generate_series(1, ${count}) as n, unnest(${granularities}::text[]) as g
    where c.name = ${collection}`.execute(t.h.database.db);
}

/** How many rows of `documents` the planner's statistics count. */
async function documentsInStatistics(): Promise<number> {
  const { rows } = await sql<{ rows: number }>`select reltuples::float8 as rows from pg_class where oid = 'documents'::regclass`.execute(t.h.database.db);
  return Number(rows[0]!.rows);
}

/** Rows of `documents` changed since its statistics were taken, as the statistics views show them. */
async function documentsChangedSinceAnalyzed(): Promise<number> {
  const { rows } = await sql<{ changed: number }>`select n_mod_since_analyze::float8 as changed from pg_stat_user_tables where relid = 'documents'::regclass`.execute(t.h.database.db);
  return Number(rows[0]?.changed ?? 0);
}
