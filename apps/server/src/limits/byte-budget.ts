import { RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from '../domain/errors.ts';
import type { ByteBudget, ByteRateLimiter } from '../domain/models/rate-limit.ts';
import type { LimitStore } from './limit-store.ts';

/** The counter itself never refuses (PostgreSQL's integer column bounds it): budgets are checked here, per key. */
const COUNTER_CEILING = 2 ** 31 - 1;

/**
 * A byte budget per key (an organization), counted in the installation's limit store. Admitting
 * is one atomic increment in the store that returns the window's total, so servers admitting at
 * once can never together pass the budget: the one whose increment crosses it is refused, and
 * gives its bytes back. The window is fixed and starts with a key's first request in it. A key
 * may have a budget of its own (an admin override); the count is the same.
 */
export function byteBudget(store: LimitStore, budget: ByteBudget): ByteRateLimiter {
  const counter = store.counter(budget.name, COUNTER_CEILING, budget.windowMs);
  return {
    budgetBytes: budget.budgetBytes,
    async admit(key, bytes, budgetBytes = budget.budgetBytes) {
      const counted = await counter.consume(key, bytes).catch((error: unknown) => {
        if (error instanceof RateLimiterRes) return error; // past the ceiling: refused below
        throw error;
      });
      if (counted.consumedPoints <= budgetBytes) return;
      // A refused request is not counted; near the window's end it is left alone, so a give-back
      // landing in the next window can never lend that window extra room.
      if (counted.msBeforeNext > 1000) await counter.reward(key, bytes).catch(() => {});
      throw new TooManyRequests(budget.describe(budgetBytes), Math.max(1, counted.msBeforeNext) / 1000);
    },
  };
}
