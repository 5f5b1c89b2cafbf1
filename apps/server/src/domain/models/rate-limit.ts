/**
 * A per-key byte budget over a window, shared by every server of the installation (see
 * limits/byte-budget.ts). The domain only asks it to admit a request's bytes.
 */
export interface ByteRateLimiter {
  /**
   * Counts `bytes` against `key`, or throws TooManyRequests with the seconds until they would fit.
   * `budget` is that key's own budget when it has one (an organization's admin override).
   */
  admit(key: string, bytes: number, budget?: number): Promise<void>;
  readonly budgetBytes: number;
}

/** What a budget is: its name (the counters' key prefix), its size and window, and its refusal. */
export interface ByteBudget {
  name: string;
  budgetBytes: number;
  windowMs: number;
  describe(budgetBytes: number): string;
}
