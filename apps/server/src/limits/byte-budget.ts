import { RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequests } from '../domain/errors.ts';
import type { ByteBudget, ByteRateLimiter } from '../domain/models/rate-limit.ts';
import type { LimitStore } from './limit-store.ts';

/**
 * A byte budget per key (an organization), counted in the installation's limit store. Admitting
 * is one atomic increment in the store that returns the window's total, so servers admitting at
 * once can never together pass the budget: the one whose increment crosses it is refused, and
 * gives its bytes back. The window is fixed and starts with a key's first request in it.
 */
export function byteBudget(store: LimitStore, budget: ByteBudget): ByteRateLimiter {
  const counter = store.counter(budget.name, budget.budgetBytes, budget.windowMs);
  return {
    budgetBytes: budget.budgetBytes,
    async admit(key, bytes) {
      try {
        await counter.consume(key, bytes);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        // A refused request is not counted; near the window's end it is left alone, so a give-back
        // landing in the next window can never lend that window extra room.
        if (refusal.msBeforeNext > 1000) await counter.reward(key, bytes).catch(() => {});
        throw new TooManyRequests(budget.describe(budget.budgetBytes), Math.max(1, refusal.msBeforeNext) / 1000);
      }
    },
  };
}
