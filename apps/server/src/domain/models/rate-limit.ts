import { RATE_LIMIT_WINDOW_MS } from '../limits.ts';
import { TooManyRequests } from '../errors.ts';

/**
 * A per-key byte budget over a sliding window (an exact log of admitted requests, not fixed
 * minute buckets, so a burst at a minute boundary cannot pass twice the budget).
 *
 * It lives in the server process's memory: one process serves HTTP (ingestion workers never
 * call models), and admitting and recording happen in one synchronous step, so concurrent
 * requests cannot both slip under the budget. A restart forgets at most one window.
 */
export interface ByteRateLimiter {
  /**
   * Counts `bytes` against `key`, or throws TooManyRequests with the seconds until they would fit.
   * `budget` is that key's own budget when it has one (an organization's admin override).
   */
  admit(key: string, bytes: number, budget?: number): void;
  readonly budgetBytes: number;
}

interface Entry {
  at: number;
  bytes: number;
}

export function createByteRateLimiter(options: {
  budgetBytes: number;
  windowMs?: number;
  /** Milliseconds; injectable so tests can move time. */
  now?: () => number;
  describe?: (budgetBytes: number) => string;
}): ByteRateLimiter {
  const { windowMs = RATE_LIMIT_WINDOW_MS, now = Date.now } = options;
  const describe = options.describe ?? ((budget) => `Rate limit exceeded: ${budget} bytes per minute.`);
  const logs = new Map<string, { entries: Entry[]; used: number }>();

  return {
    budgetBytes: options.budgetBytes,
    admit(key, bytes, budgetBytes = options.budgetBytes) {
      const at = now();
      const log = logs.get(key) ?? { entries: [], used: 0 };
      let expired = 0;
      while (expired < log.entries.length && log.entries[expired]!.at <= at - windowMs) log.used -= log.entries[expired++]!.bytes;
      if (expired) log.entries.splice(0, expired);

      if (log.used + bytes > budgetBytes) {
        // The earliest moment enough of the oldest admitted requests leave the window.
        let freed = 0;
        let waitMs = windowMs;
        for (const entry of log.entries) {
          freed += entry.bytes;
          if (log.used - freed + bytes <= budgetBytes) {
            waitMs = entry.at + windowMs - at;
            break;
          }
        }
        if (log.entries.length) logs.set(key, log);
        throw new TooManyRequests(describe(budgetBytes), waitMs / 1000);
      }
      log.entries.push({ at, bytes });
      log.used += bytes;
      logs.set(key, log);
    },
  };
}
