import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from '../db/schema.ts';

/**
 * Where the installation's limits count (rate-limiter-flexible): Redis when REDIS_URL is set,
 * else PostgreSQL when it is the database (table `rate_limits`, migration 009), else this
 * process's memory (SQLite: one server). Every server of an installation counts in the same
 * place, so a budget holds for the installation, not per server.
 */
export interface LimitStore {
  readonly kind: 'redis' | 'postgres' | 'memory';
  /** A fixed-window counter of `points` per `windowMs` under `name`. */
  counter(name: string, points: number, windowMs: number): RateLimiterAbstract;
  close(): Promise<void>;
}

export function openLimitStore(options: { redisUrl?: string }, database: Database): LimitStore {
  const store = openStore(options, database);
  // One counter per name in a process: two budgets of one name count together.
  const counters = new Map<string, RateLimiterAbstract>();
  return {
    kind: store.kind,
    counter(name, points, windowMs) {
      let counter = counters.get(name);
      if (!counter) counters.set(name, (counter = store.counter(name, points, windowMs)));
      return counter;
    },
    close: () => store.close(),
  };
}

function openStore({ redisUrl }: { redisUrl?: string }, database: Database): LimitStore {
  const memory = (name: string, points: number, windowMs: number) =>
    new RateLimiterMemory({ keyPrefix: name, points, duration: windowMs / 1000 });
  if (redisUrl) {
    // Commands wait for the connection at start; while Redis is away they fail after one retry
    // and this process's insurance limiter answers until it is back.
    const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    client.on('error', () => {}); // reconnects by itself; requests meanwhile use the insurance limiter
    return {
      kind: 'redis',
      counter: (name, points, windowMs) =>
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: `sift:${name}`,
          points,
          duration: windowMs / 1000,
          insuranceLimiter: memory(name, points, windowMs),
        }),
      close: async () => void client.disconnect(),
    };
  }
  if (database.pool) {
    const pool = database.pool;
    return {
      kind: 'postgres',
      counter: (name, points, windowMs) =>
        new RateLimiterPostgres({
          storeClient: pool,
          storeType: 'pool',
          tableName: 'rate_limits',
          tableCreated: true,
          keyPrefix: name,
          points,
          duration: windowMs / 1000,
          insuranceLimiter: memory(name, points, windowMs),
        }),
      close: async () => {},
    };
  }
  return { kind: 'memory', counter: memory, close: async () => {} };
}
