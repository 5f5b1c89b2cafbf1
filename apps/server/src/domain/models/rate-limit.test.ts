import { describe, expect, test } from 'vitest';
import { TooManyRequests } from '../errors.ts';
import { createByteRateLimiter } from './rate-limit.ts';

function clockAt(start: number) {
  const clock = { now: start, advance: (ms: number) => (clock.now += ms) };
  return clock;
}

const refusal = (run: () => void): TooManyRequests => {
  try {
    run();
  } catch (error) {
    if (error instanceof TooManyRequests) return error;
    throw error;
  }
  throw new Error('expected a 429');
};

describe('byte rate limiter', () => {
  test('admits up to the budget, then answers 429 with retry-after until the oldest bytes leave the window', () => {
    const clock = clockAt(1_000_000);
    const limiter = createByteRateLimiter({ budgetBytes: 1000, windowMs: 60_000, now: () => clock.now });
    limiter.admit('org', 600);
    clock.advance(20_000);
    limiter.admit('org', 400); // exactly the budget
    clock.advance(5_000);
    const refused = refusal(() => limiter.admit('org', 1));
    expect(refused.status).toBe(429);
    // The first 600 bytes leave the window 60 s after they came in: 35 s from now.
    expect(refused.headers['retry-after']).toBe('35');
    clock.advance(34_999);
    expect(() => limiter.admit('org', 1)).toThrow(TooManyRequests);
    clock.advance(1);
    limiter.admit('org', 600);
  });

  test('a refused request is not counted', () => {
    const clock = clockAt(0);
    const limiter = createByteRateLimiter({ budgetBytes: 100, now: () => clock.now });
    limiter.admit('org', 90);
    for (let i = 0; i < 5; i++) expect(() => limiter.admit('org', 20)).toThrow(TooManyRequests);
    limiter.admit('org', 10);
  });

  test('retry-after waits for as many old requests as the new one needs', () => {
    const clock = clockAt(0);
    const limiter = createByteRateLimiter({ budgetBytes: 300, windowMs: 60_000, now: () => clock.now });
    for (let i = 0; i < 3; i++) {
      limiter.admit('org', 100);
      clock.advance(10_000);
    }
    // At 30 s: 300 used. 200 bytes fit once the first two requests (at 0 s and 10 s) expire,
    // 250 bytes only once the third (at 20 s) does too.
    expect(refusal(() => limiter.admit('org', 200)).headers['retry-after']).toBe('40');
    expect(refusal(() => limiter.admit('org', 250)).headers['retry-after']).toBe('50');
  });

  test('organizations have separate budgets', () => {
    const limiter = createByteRateLimiter({ budgetBytes: 100, now: () => 0 });
    limiter.admit('a', 100);
    expect(() => limiter.admit('a', 1)).toThrow(TooManyRequests);
    limiter.admit('b', 100);
  });
});
