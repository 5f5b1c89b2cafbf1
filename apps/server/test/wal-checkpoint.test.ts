import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Database, DB } from '../src/db/schema.ts';
import { searchDirectory } from '../src/engine/search/sqlite-file.ts';
import { keepWriteAheadLogsSmall } from '../src/db/wal-checkpoint.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * SQLite's write-ahead logs are checkpointed and truncated while the server runs, the main
 * file's and every collection's search file's, not only at a clean shutdown (issue #13 pt 5).
 */
describe.runIf(process.env.SIFT_TEST_DIALECT !== 'postgres')('write-ahead logs', () => {
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  beforeAll(async () => {
    h = await startHarness({}, { dialect: 'sqlite' });
    f = await providerFixtures(h);
  });
  afterAll(async () => {
    await f.workers.stop();
    await h.close();
  });

  const size = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

  test('every write-ahead log past the limit is truncated while the server runs', async () => {
    for (const collection of ['tides', 'birds']) {
      await h.call('/v1/collections/add-collection', { collection_name: collection }, f.keyA);
      for (let i = 0; i < 5; i++) {
        const text = `${collection} note ${i}: the harbour at dawn, the gulls over the quay.`;
        expect((await h.call('/v1/documents/add-document', { collection_name: collection, path: `${i}.txt`, content: { type: 'text', text } }, f.keyA)).status).toBe(201);
      }
    }
    await f.workers.idle();
    const directory = searchDirectory(h.database.sqlitePath!);
    const logs = () => [`${h.database.sqlitePath!}-wal`, ...readdirSync(directory).filter((name) => name.endsWith('.db-wal')).map((name) => join(directory, name))];
    expect(logs()).toHaveLength(3);
    expect(logs().every((log) => size(log) > 0)).toBe(true);

    const checkpoints = keepWriteAheadLogsSmall(h.database, { limitBytes: 1 });
    try {
      await expect.poll(() => logs().map(size), { timeout: 10_000, interval: 200 }).toEqual([0, 0, 0]);
    } finally {
      checkpoints.stop();
    }
    const search = await h.call('/v1/queries/top-documents', { collection_name: 'birds', query: 'gulls quay', k: 10 }, f.keyA);
    expect(search.body.results).toHaveLength(5);
  });

  test('a log under the limit is truncated once it stops growing, and searches still answer', async () => {
    await h.call('/v1/collections/add-collection', { collection_name: 'herons' }, f.keyA);
    for (let i = 0; i < 3; i++) {
      const text = `heron ${i}: standing still in the reeds of the estuary.`;
      expect((await h.call('/v1/documents/add-document', { collection_name: 'herons', path: `${i}.txt`, content: { type: 'text', text } }, f.keyA)).status).toBe(201);
    }
    await f.workers.idle();
    const logs = () => [`${h.database.sqlitePath!}-wal`, ...readdirSync(searchDirectory(h.database.sqlitePath!)).filter((name) => name.endsWith('.db-wal')).map((name) => join(searchDirectory(h.database.sqlitePath!), name))];
    expect(logs().some((log) => size(log) > 0)).toBe(true);

    const checkpoints = keepWriteAheadLogsSmall(h.database, { quietBytes: 1, quietMs: 1000 });
    try {
      await expect.poll(() => logs().map(size), { timeout: 15_000, interval: 200 }).toEqual(logs().map(() => 0));
    } finally {
      checkpoints.stop();
    }
    const search = await h.call('/v1/queries/top-documents', { collection_name: 'herons', query: 'estuary reeds', k: 10 }, f.keyA);
    expect(search.body.results).toHaveLength(3);
  });
});

/**
 * PostgreSQL: past the limit of log written since the last checkpoint, Sift asks for one, when
 * its role may; a role that may not is told how to allow it, once, and nothing fails.
 */
describe.runIf(process.env.SIFT_TEST_DIALECT === 'postgres' && process.env.TEST_POSTGRES_URL)('PostgreSQL write-ahead log', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { dialect: 'postgres' });
  });
  afterAll(() => h.close());

  /** Log written since the last checkpoint began, and since a given position. */
  const logSince = async (db: Kysely<DB>, lsn = '0/0') =>
    (
      await sql<{ checkpoint: number; lsn: number; now: string }>`select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::float8 as checkpoint,
        pg_wal_lsn_diff(redo_lsn, ${lsn}::pg_lsn)::float8 as lsn, pg_current_wal_lsn()::text as now from pg_control_checkpoint()`.execute(db)
    ).rows[0]!;

  test('a checkpoint is asked for once the log since the last one passes the limit', async () => {
    await sql`create table wal_filler as select g, repeat('tide', 64) as t from generate_series(1, 20000) g`.execute(h.database.db);
    const before = await logSince(h.database.db);
    expect(before.checkpoint).toBeGreaterThan(1024 * 1024);
    const checkpoints = keepWriteAheadLogsSmall(h.database, { limitBytes: 1024 * 1024 });
    try {
      // The next checkpoint begins after everything written so far (the server's own come every 5 minutes).
      await expect.poll(async () => (await logSince(h.database.db, before.now)).lsn, { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(0);
    } finally {
      checkpoints.stop();
    }
  });

  test('a role that may not checkpoint says how to allow it, once', async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`do $$ begin create role sift_no_checkpoint login; exception when duplicate_object then null; end $$`);
    await admin.end();
    const url = new URL(process.env.TEST_POSTGRES_URL!);
    url.username = 'sift_no_checkpoint';
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 1 }) }) });
    const said: string[] = [];
    const checkpoints = keepWriteAheadLogsSmall({ db, dialect: 'postgres' } as Database, { limitBytes: 1, log: { info: (message) => said.push(message) } });
    try {
      await expect.poll(() => said, { timeout: 10_000, interval: 200 }).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(said).toEqual([expect.stringContaining('grant it pg_checkpoint')]);
    } finally {
      checkpoints.stop();
      await db.destroy();
    }
  });
});
