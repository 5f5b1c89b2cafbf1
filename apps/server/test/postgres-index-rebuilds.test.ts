import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { IndexRebuilds } from '../src/engine/search/postgres-upkeep.ts';
import { startHarness } from './harness.ts';
import { freshPostgresDatabase } from './postgres-schema.ts';
import { providerFixtures } from './provider-fixtures.ts';

// PostgreSQL: idle upkeep rebuilds the indexes of bookkeeping tables that changed much
// (postgres-upkeep.ts). A database of their own: a concurrent rebuild waits for every older
// transaction of its database, and other test files run theirs beside these.

const postgres = process.env.SIFT_TEST_DIALECT === 'postgres';
const t = {} as { h: Awaited<ReturnType<typeof startHarness>>; f: Awaited<ReturnType<typeof providerFixtures>>; database: Awaited<ReturnType<typeof freshPostgresDatabase>> };
beforeAll(async () => {
  if (!postgres) return;
  t.database = await freshPostgresDatabase(process.env.TEST_POSTGRES_URL!);
  t.h = await startHarness({ DATABASE_URL: t.database.url });
  t.f = await providerFixtures(t.h);
  await t.h.call('/v1/collections/add-collection', { collection_name: 'churn' }, t.f.keyA);
  // A document's claims, parse and indexing each add an entry to every index of `documents`.
  for (let i = 0; i < 500; i += 50) {
    const batch = Array.from({ length: 50 }, (_, j) => `c${i + j}.txt`);
    await Promise.all(batch.map((path) => t.h.call('/v1/documents/add-document', { collection_name: 'churn', path, content: { type: 'text', text: `Churn ${path}.` } }, t.f.keyA)));
  }
  await t.f.workers.idle();
}, 60_000);
afterAll(async () => {
  await t.f?.workers.stop();
  await t.h?.close();
  await t.database?.drop();
});
/** How long a rebuild may take to become due (each connection reports its changes within seconds) and be done. */
const REBUILD_WAIT_MS = 30_000;

test.runIf(postgres)('once ingestion is idle, the indexes of documents that changed much are rebuilt to about their fresh size', async () => {
  const overFreshSize = async () => {
    await t.h.engine.search.upkeepStep();
    return t.h.database.db.transaction().execute(async (trx) => {
      await sql`create temp table fresh_documents (like documents including indexes) on commit drop`.execute(trx);
      await sql`insert into fresh_documents select * from documents`.execute(trx);
      const { rows } = await sql<{ ratio: number }>`select pg_indexes_size('documents')::float8 / pg_indexes_size('fresh_documents') as ratio`.execute(trx);
      return rows[0]!.ratio;
    });
  };
  await expect.poll(overFreshSize, { timeout: REBUILD_WAIT_MS, interval: 200 }).toBeLessThan(1.3);
}, 2 * REBUILD_WAIT_MS);

test.runIf(postgres)('a rebuild cut short by a transaction holding an old snapshot: what it left goes at the next step, and it is tried again once its wait is over', async () => {
  // The workers' own upkeep would rebuild the same indexes meanwhile.
  await t.f.workers.stop();
  let now = Date.now();
  const rebuilds = new IndexRebuilds({ nowMs: () => now });
  const db = t.h.database.db;
  const holder = new pg.Client({ connectionString: t.h.config.databaseUrl });
  await holder.connect();
  try {
    // A concurrent rebuild waits for every older snapshot before it swaps its new indexes in.
    await holder.query('begin isolation level repeatable read');
    await holder.query('select count(*) from documents');
    // A server just started counts every change since the tables were made: a rebuild is due
    // once the statistics show them.
    await expect.poll(documentsRebuildDue, { timeout: REBUILD_WAIT_MS, interval: 200 }).toBe(true);
    await expect(rebuilds.step(db)).rejects.toThrow();
  } finally {
    await holder.query('rollback');
    await holder.end();
  }
  // The next step drops what the failed rebuild left.
  expect(await rebuilds.step(db)).toBe(true);
  const invalidIndexes = await sql<{ name: string }>`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not i.indisvalid`.execute(db);
  expect(invalidIndexes.rows).toEqual([]);
  // Not tried again before its wait (other tables' indexes may be rebuilt meanwhile)...
  const before = await documentsIndexes();
  while (await rebuilds.step(db));
  expect(await documentsIndexes()).toEqual(before);
  // ...then tried again, though `documents` has not changed since: each of its indexes is a new one.
  now += 30_000;
  expect(await rebuilds.step(db)).toBe(true);
  const after = await documentsIndexes();
  expect(after).toHaveLength(before.length);
  expect(after.filter((index) => before.includes(index))).toEqual([]);
}, 2 * REBUILD_WAIT_MS);

/** The indexes of `documents`, each by its object id (a rebuilt index is a new object). */
async function documentsIndexes(): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select indexrelid::int8 as id from pg_index where indrelid = 'documents'::regclass order by 1`.execute(t.h.database.db);
  return rows.map((row) => Number(row.id));
}

/** What IndexRebuilds.step asks of `documents` before it rebuilds its indexes. */
async function documentsRebuildDue(): Promise<boolean> {
  const { rows } = await sql<{ due: boolean }>`select n_tup_upd - n_tup_hot_upd + n_tup_del >= greatest(n_live_tup, 1000) as due
    from pg_stat_user_tables where schemaname = current_schema() and relname = 'documents'`.execute(t.h.database.db);
  return rows[0]?.due ?? false;
}
