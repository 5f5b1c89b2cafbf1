import { describe, expect, test } from 'vitest';
import { formatBytes, formatCount, formatExactBytes, hourLabel, niceScale, updatedLabel } from '@/features/usage/usage-format';

describe('usage formatters', () => {
  test('counts are shortened with k, M and B', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1k');
    expect(formatCount(1500)).toBe('1.5k');
    expect(formatCount(999_960)).toBe('1M');
    expect(formatCount(2_340_000)).toBe('2.3M');
    expect(formatCount(7_000_000_000)).toBe('7B');
    expect(formatCount(7_000_000_000_000)).toBe('7000B');
  });

  test('sizes go from B to TB in decimal steps of 1000', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2_500_000)).toBe('2.5 MB');
    expect(formatBytes(3e9)).toBe('3 GB');
    expect(formatBytes(4.2e12)).toBe('4.2 TB');
    expect(formatBytes(5e15)).toBe('5000 TB');
  });

  test('a clicked size shows the exact byte count', () => {
    expect(formatExactBytes(1_234_567)).toBe('1,234,567 bytes');
    expect(formatExactBytes(1)).toBe('1 byte');
  });

  test('the freshness label says <1 min, then N min(s)', () => {
    expect(updatedLabel(0, 59_999)).toBe('updated <1 min ago');
    expect(updatedLabel(0, 60_000)).toBe('updated 1 min ago');
    expect(updatedLabel(0, 5 * 60_000 + 10)).toBe('updated 5 mins ago');
  });

  test('hours are labelled 12am to 11pm', () => {
    expect(Array.from({ length: 24 }, (_, h) => hourLabel(h))).toEqual([
      '12am', '1am', '2am', '3am', '4am', '5am', '6am', '7am', '8am', '9am', '10am', '11am',
      '12pm', '1pm', '2pm', '3pm', '4pm', '5pm', '6pm', '7pm', '8pm', '9pm', '10pm', '11pm',
    ]);
  });
});

describe('chart axis scales', () => {
  test('the count axis reaches at least 10 and the bytes axis at least 1000, with round ticks', () => {
    expect(niceScale(0, 10)).toEqual({ max: 10, ticks: [0, 2, 4, 6, 8, 10] });
    expect(niceScale(14, 10)).toEqual({ max: 20, ticks: [0, 5, 10, 15, 20] });
    expect(niceScale(34, 10)).toEqual({ max: 40, ticks: [0, 10, 20, 30, 40] });
    expect(niceScale(51, 10)).toEqual({ max: 80, ticks: [0, 20, 40, 60, 80] });
    expect(niceScale(3, 1000)).toEqual({ max: 1000, ticks: [0, 200, 400, 600, 800, 1000] });
    expect(niceScale(2_400_000, 1000).ticks.map(formatBytes)).toEqual(['0 B', '1 MB', '2 MB', '3 MB', '4 MB']);
  });
});
