import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Another connection holds the database's write lock (SQLite) or the collection's row
 * (PostgreSQL) while uploads arrive: a short hold makes them wait and succeed; a hold longer than
 * the bounded wait answers 503 with `retry-after` (the SDK retries it). Never a 500, never
 * "database is locked" in a body; searches keep answering meanwhile.
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call('/v1/collections/add-collection', { collection_name: 'busy' }, f.keyA);
  await h.call('/v1/documents/add-document', { collection_name: 'busy', path: 'first.txt', content: { type: 'text', text: 'A quiet harbour at dawn.' } }, f.keyA);
  await f.workers.idle();
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

const upload = (path: string) =>
  h.call('/v1/documents/add-document', { collection_name: 'busy', path, content: { type: 'text', text: `The harbour master wrote ${path}.` } }, f.keyA);

/** Takes the lock an upload needs, on a connection of its own; resolves to its release. */
async function holdLock(): Promise<() => Promise<void>> {
  if (h.database.dialect === 'sqlite') {
    const other = new SQLite(h.database.sqlitePath!);
    other.exec('begin immediate');
    return async () => {
      other.exec('rollback');
      other.close();
    };
  }
  const client = new pg.Client({ connectionString: h.config.databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query(`select * from collections where name = 'busy' for update`);
  return async () => {
    await client.query('rollback');
    await client.end();
  };
}

test('an upload waits for a write lock held briefly, and succeeds', async () => {
  const release = await holdLock();
  const pending = upload('waited.txt');
  setTimeout(() => void release(), 300);
  const search = await h.call('/v1/queries/top-snippets', { collection_name: 'busy', query: 'harbour', k: 1 }, f.keyA);
  expect(search.status).toBe(200);
  expect((await pending).status).toBe(201);
});

test('a write lock held past the bounded wait answers 503 with retry-after, never 500', { timeout: 30_000 }, async () => {
  const release = await holdLock();
  try {
    const refused = await upload('refused.txt');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.detail).not.toMatch(/locked/i);
  } finally {
    await release();
  }
  expect((await upload('refused.txt')).status).toBe(201);
});
