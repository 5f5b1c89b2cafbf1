import pg from 'pg';
import { afterEach, expect, test } from 'vitest';
import { PIPELINE_DEPTH, PipelinedPool, STALL_MS } from '../src/db/pipelined-pool.ts';
import { PreparedStatementsClient } from '../src/db/prepared-statements-client.ts';

/**
 * The searches' pipelined connections (PostgreSQL): many queries in flight on a few connections,
 * each answered with its own rows, a failing one failing alone, a dropped connection replaced.
 */
const url = process.env.TEST_POSTGRES_URL;
const pools: { end(): Promise<void> }[] = [];
const open = (size: number) => {
  const overflow = new pg.Pool({ connectionString: url, max: 2 });
  const pool = new PipelinedPool(size, (socket) => new PreparedStatementsClient({ connectionString: url, pipeline: true, stream: () => socket }), overflow);
  pools.push(pool, overflow);
  return pool;
};
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

/** As Kysely does: a client from the pool, one query, the client released. */
async function query(pool: PipelinedPool, text: string, values: unknown[]) {
  const client = await pool.connect();
  try {
    return (await client.query<Record<string, number>>(text, values)).rows;
  } finally {
    client.release();
  }
}

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

test.runIf(url)('while the running query is slow, queries sent after it answer first, on another connection', async () => {
  const pool = open(1);
  const [{ pid }] = await query(pool, 'select pg_backend_pid() as pid', []);
  const answered: string[] = [];
  const slow = query(pool, 'select pg_sleep(0.5), pg_backend_pid() as pid', []).then((rows) => {
    answered.push('slow');
    return rows;
  });
  // Sent at once: queued behind the slow query on its connection, answered after it.
  const behind = query(pool, 'select pg_backend_pid() as pid', []).then(() => answered.push('queued at once'));
  await new Promise((resolve) => setTimeout(resolve, STALL_MS * 3));
  const [later] = await query(pool, 'select pg_backend_pid() as pid', []);
  answered.push('sent once stalled');
  await Promise.all([slow, behind]);
  expect(answered).toEqual(['sent once stalled', 'slow', 'queued at once']);
  expect(later.pid).not.toBe(pid);
  expect((await slow)[0].pid).toBe(pid);
});

test.runIf(url)('queries past the depth wait, and go to the overflow pool once the running query stalls', async () => {
  const pool = open(1);
  const [{ pid }] = await query(pool, 'select pg_backend_pid() as pid', []);
  const order: string[] = [];
  const slow = query(pool, 'select pg_sleep(0.5)', []).then(() => order.push('slow'));
  const others = Array.from({ length: PIPELINE_DEPTH - 1 + 6 }, () => query(pool, 'select pg_backend_pid() as pid', []).then((rows) => order.push(rows[0].pid === pid ? 'behind' : 'overflow')));
  // What the metrics report meanwhile: the connection full and stalled, nobody left waiting here.
  await expect.poll(() => pool.stats()).toEqual({ connections: 1, inFlight: PIPELINE_DEPTH, waiting: 0, stalled: 1, overflowed: 6 });
  await Promise.all([slow, ...others]);
  // Those sent behind the slow query wait for it; the six past the depth do not.
  expect(order).toEqual([...Array(6).fill('overflow'), 'slow', ...Array(PIPELINE_DEPTH - 1).fill('behind')]);
  expect(pool.stats()).toEqual({ connections: 1, inFlight: 0, waiting: 0, stalled: 0, overflowed: 6 });
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
