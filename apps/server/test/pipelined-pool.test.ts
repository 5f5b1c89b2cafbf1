import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { PipelinedPool } from '../src/db/pipelined-pool.ts';
import { PreparedStatementsClient } from '../src/db/prepared-statements-client.ts';

/**
 * The searches' pipelined connections (PostgreSQL): many queries in flight on a few connections,
 * each answered with its own rows, a failing one failing alone, a dropped connection replaced.
 */
const url = process.env.TEST_POSTGRES_URL;
const pools: PipelinedPool[] = [];
const open = (size: number) => {
  const pool = new PipelinedPool(size, () => new PreparedStatementsClient({ connectionString: url, pipeline: true } as pg.ClientConfig));
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

const query = async (pool: PipelinedPool, text: string, values: unknown[]) => (await (await pool.connect()).query(text, values)).rows;

test.runIf(url)('forty queries at once on two connections each get their own rows, on both connections', async () => {
  const pool = open(2);
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => query(pool, 'select $1::int as n, pg_backend_pid() as pid', [i])));
  expect(answers.map((rows) => rows[0].n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  expect(new Set(answers.map((rows) => rows[0].pid)).size).toBe(2);
});

test.runIf(url)('a failing query fails alone; the queries pipelined around it answer', async () => {
  const pool = open(1);
  const outcomes = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => query(pool, 'select 10 / $1::int as n', [i === 4 ? 0 : 1])));
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
  expect((outcomes[4] as PromiseRejectedResult).reason.message).toMatch(/division by zero/);
  expect((await query(pool, 'select 1 as n', []))[0].n).toBe(1);
});

test.runIf(url)('a connection the database drops is replaced: the next queries answer on a new one', async () => {
  const pool = open(1);
  const [{ pid }] = await query(pool, 'select pg_backend_pid() as pid', []);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
  await expect
    .poll(async () => {
      try {
        return (await query(pool, 'select pg_backend_pid() as pid', []))[0].pid !== pid;
      } catch {
        return false;
      }
    })
    .toBe(true);
});

test.runIf(url)('once ended, it refuses new queries', async () => {
  const pool = open(1);
  await query(pool, 'select 1', []);
  await pool.end();
  await expect(pool.connect()).rejects.toThrow(/closed/);
});
