import { describe, expect, it } from 'vitest';
import { BUSY_POLL_MS, IDLE_POLL_MS, pollInterval } from '@/features/collections/polling';

describe('pollInterval', () => {
  it('polls fast while documents are not final, slowly otherwise, and never while the screen is hidden', () => {
    expect(pollInterval(true, true)).toBe(BUSY_POLL_MS);
    expect(pollInterval(true, false)).toBe(IDLE_POLL_MS);
    expect(pollInterval(false, true)).toBe(false);
    expect(pollInterval(false, false)).toBe(false);
  });
});
