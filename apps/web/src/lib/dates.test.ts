import { describe, expect, test } from 'vitest';
import { formatUsLongDateTime, formatUtcLongDate, organizationAge } from '@/lib/dates';

describe('API key creation dates', () => {
  test('are shown in UTC with the long month, day, year and 12-hour time, and say UTC', () => {
    expect(formatUtcLongDate('2026-03-05T17:04:00.000Z')).toBe('March 5, 2026 at 5:04 PM UTC');
    expect(formatUtcLongDate('2026-03-05T00:30:00.000Z')).toBe('March 5, 2026 at 12:30 AM UTC');
  });
});

describe('organization created date', () => {
  test('is a long US date with hour and minute, naming the viewer\'s time zone', () => {
    const shown = formatUsLongDateTime('2026-03-05T17:04:00.000Z');
    expect(shown).toMatch(/^March [45], 2026 at \d{2}:04 (AM|PM) \S+$/);
  });
});

describe('organization age in the Delete dialog', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const hour = 3_600_000;
  test('under an hour', () => expect(organizationAge(ago(59 * 60_000), now)).toBe('less than 1 hour ago'));
  test('hours under a day', () => expect(organizationAge(ago(5 * hour + 10), now)).toBe('5 hours ago'));
  test('days and hours up to a week', () => expect(organizationAge(ago(3 * 24 * hour + 4 * hour), now)).toBe('3 days and 4 hours ago'));
  test('exactly seven days still counts hours', () => expect(organizationAge(ago(7 * 24 * hour), now)).toBe('7 days and 0 hours ago'));
  test('days beyond a week', () => expect(organizationAge(ago(12 * 24 * hour + 5 * hour), now)).toBe('12 days ago'));
});
