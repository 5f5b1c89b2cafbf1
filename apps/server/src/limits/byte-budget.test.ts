import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { freshPostgresSchema } from '../../test/postgres-schema.ts';
import { openDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { TooManyRequests } from '../domain/errors.ts';
import type { ByteBudget } from '../domain/models/rate-limit.ts';
import { byteBudget } from './byte-budget.ts';
import { type LimitStore, openLimitStore } from './limit-store.ts';

const budget = (budgetBytes: number): ByteBudget => ({
  name: `test-${randomUUID()}`,
  budgetBytes,
  windowMs: 60_000,
  describe: (bytes) => `Rate limit exceeded: ${bytes} bytes per minute.`,
});

const refusal = async (run: () => Promise<void>): Promise<TooManyRequests> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof TooManyRequests) return error;
    throw error;
  }
  throw new Error('expected a 429');
};

/**
 * Each store the installation may count in, with two "servers" (two connections, two limiter
 * instances) where the store is shared: memory (SQLite, one server), PostgreSQL (when
 * TEST_POSTGRES_URL is set), Redis (when TEST_REDIS_URL is set).
 */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function openDatabaseFor(kind: 'sqlite' | 'postgres'): Promise<Database> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-limits-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (kind === 'sqlite') {
    const database = await openDatabase({ dataDir });
    cleanups.push(() => database.destroy());
    return database;
  }
  const schema = await freshPostgresSchema(process.env.TEST_POSTGRES_URL!);
  const database = await openDatabase({ dataDir, databaseUrl: schema.url });
  cleanups.push(() => database.destroy());
  return database;
}

const stores: { name: string; enabled: boolean; open(): Promise<[LimitStore, LimitStore]> }[] = [
  {
    name: 'memory',
    enabled: true,
    async open() {
      const store = openLimitStore({}, await openDatabaseFor('sqlite'));
      return [store, store];
    },
  },
  {
    name: 'PostgreSQL',
    enabled: Boolean(process.env.TEST_POSTGRES_URL),
    async open() {
      const first = await openDatabaseFor('postgres');
      // A second handle on the same schema: another server's pool.
      const second = await openDatabase({ dataDir: tmpdir(), databaseUrl: (first.pool!.options as { connectionString: string }).connectionString });
      cleanups.push(() => second.destroy());
      return [openLimitStore({}, first), openLimitStore({}, second)];
    },
  },
  {
    name: 'Redis',
    enabled: Boolean(process.env.TEST_REDIS_URL),
    async open() {
      const database = await openDatabaseFor('sqlite');
      const pair = [openLimitStore({ redisUrl: process.env.TEST_REDIS_URL }, database), openLimitStore({ redisUrl: process.env.TEST_REDIS_URL }, database)] as [LimitStore, LimitStore];
      cleanups.push(async () => void (await Promise.all(pair.map((store) => store.close()))));
      return pair;
    },
  },
];

describe.each(stores.filter((store) => store.enabled))('byte budget in $name', (kind) => {
  test('admits up to the budget, then answers 429 with retry-after within the window; a refused request is not counted', async () => {
    const [store] = await kind.open();
    const limiter = byteBudget(store, budget(1000));
    await limiter.admit('org', 600);
    await limiter.admit('org', 400); // exactly the budget
    const refused = await refusal(() => limiter.admit('org', 1));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.detail).toBe('Rate limit exceeded: 1000 bytes per minute.');

    const other = byteBudget(store, budget(100));
    await other.admit('org', 90);
    for (let i = 0; i < 5; i++) await refusal(() => other.admit('org', 20));
    await other.admit('org', 10);
  });

  test('organizations have separate budgets', async () => {
    const [store] = await kind.open();
    const limiter = byteBudget(store, budget(100));
    await limiter.admit('a', 100);
    await refusal(() => limiter.admit('a', 1));
    await limiter.admit('b', 100);
  });

  test('two servers admitting at once never pass the budget together', async () => {
    const [first, second] = await kind.open();
    const shared = budget(10_000);
    const servers = [byteBudget(first, shared), byteBudget(second, shared)];
    const outcomes = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        servers[i % 2]!.admit('org', 300).then(
          () => 300,
          (error: unknown) => {
            if (error instanceof TooManyRequests) return 0;
            throw error;
          },
        ),
      ),
    );
    const admitted = outcomes.reduce((sum, bytes) => sum + bytes, 0);
    expect(admitted).toBeLessThanOrEqual(10_000);
    expect(admitted).toBeGreaterThanOrEqual(10_000 - 300); // and the budget is used, not lost
  });
});
