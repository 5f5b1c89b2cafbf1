import { sql } from 'kysely';
import pg from 'pg';
import { expect, test } from 'vitest';
import { IndexRebuilds } from '../src/engine/search/postgres-upkeep.ts';
import { fileHarness } from './support/file-harness.ts';

// PostgreSQL: idle upkeep rebuilds the indexes of bookkeeping tables that changed much
// (postgres-upkeep.ts). A schema of their own: other tests' documents would dilute the changes.

const postgres = process.env.SIFT_TEST_DIALECT === 'postgres';
const t = fileHarness({ when: postgres });
/**
 * How long a rebuild may take to become due and be done. A concurrent rebuild waits for the
 * transactions of every other connection to the database, and in the full suite other test files
 * run theirs beside it.
 */
const REBUILD_WAIT_MS = 90_000;

test.runIf(postgres)('once ingestion is idle, the indexes of documents that changed much are rebuilt to about their fresh size', async () => {
  await t.h.call('/v1/collections/add-collection', { collection_name: 'churn' }, t.f.keyA);
  // A document's claims, parse and indexing each add an entry to every index of `documents`.
  for (let i = 0; i < 500; i += 50) {
    const batch = Array.from({ length: 50 }, (_, j) => `c${i + j}.txt`);
    await Promise.all(batch.map((path) => t.h.call('/v1/documents/add-document', { collection_name: 'churn', path, content: { type: 'text', text: `Churn ${path}.` } }, t.f.keyA)));
  }
  await t.f.workers.idle();
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

test.runIf(postgres)('what a rebuild cut short by a transaction holding an old snapshot leaves behind goes at the next step', async () => {
  const rebuilds = new IndexRebuilds();
  const holder = new pg.Client({ connectionString: t.h.config.databaseUrl });
  await holder.connect();
  try {
    // A concurrent rebuild waits for every older snapshot before it swaps its new indexes in.
    await holder.query('begin isolation level repeatable read');
    await holder.query('select count(*) from documents');
    // A server just started counts every change since the tables were made: a rebuild is due
    // once the statistics show them (each connection reports its changes within seconds).
    await expect.poll(documentsRebuildDue, { timeout: REBUILD_WAIT_MS, interval: 200 }).toBe(true);
    await expect(rebuilds.step(t.h.database.db)).rejects.toThrow();
  } finally {
    await holder.query('rollback');
    await holder.end();
  }
  // The next step drops what the failed rebuild left.
  expect(await rebuilds.step(t.h.database.db)).toBe(true);
  const invalidIndexes = async () =>
    (
      await sql<{ name: string }>`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
        join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not i.indisvalid`.execute(t.h.database.db)
    ).rows;
  expect(await invalidIndexes()).toEqual([]);
}, 2 * REBUILD_WAIT_MS);

/** What IndexRebuilds.step asks of `documents` before it rebuilds its indexes. */
async function documentsRebuildDue(): Promise<boolean> {
  const { rows } = await sql<{ due: boolean }>`select n_tup_upd - n_tup_hot_upd + n_tup_del >= greatest(n_live_tup, 1000) as due
    from pg_stat_user_tables where schemaname = current_schema() and relname = 'documents'`.execute(t.h.database.db);
  return rows[0]?.due ?? false;
}
