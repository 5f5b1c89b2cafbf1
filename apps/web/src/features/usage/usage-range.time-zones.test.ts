import { AGGREGATION_WINDOW_SECONDS, type UsageRequest } from '@sift/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { historyInBuckets } from './api/usage-history-request';
import { axisLabel, axisTicks, chartTimeZone, defaultRange, drillDown, historyRequests, rangeBuckets, rangeSummary, windowLabel } from './usage-range';

/**
 * The server lays fixed-length windows from start_time (packages/contracts usage.ts); this is that
 * rule over a list of events, so the range code meets what the real server would answer.
 */
function serverHistory(events: { at: Date; count: number }[]) {
  return async (request: UsageRequest) => {
    const size = AGGREGATION_WINDOW_SECONDS[request.aggregation_window];
    const windows = Math.floor((request.end_time - request.start_time) / size) + 1;
    const history = Array.from({ length: windows }, (_, k) => ({ window_start: request.start_time + k * size, stats: { docs: { count: 0, bytes: 0 } } }));
    let total = 0;
    for (const event of events) {
      const t = event.at.getTime() / 1000;
      if (t < request.start_time || t > request.end_time) continue;
      history[Math.floor((t - request.start_time) / size)]!.stats.docs.count += event.count;
      total += event.count;
    }
    return { history, totals: { docs: { count: total, bytes: 0 } } };
  };
}

const originalZone = process.env.TZ;

// Two zones the old code got wrong: Los Angeles (a daylight-saving change inside the default
// range, Nov 1 2026) and Kolkata (a half-hour offset from UTC, so UTC days are never local days).
describe.each(['America/Los_Angeles', 'Asia/Kolkata'])('usage range in %s', (zone) => {
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    process.env.TZ = originalZone;
  });
  const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

  test('the test runs in the zone it names and the chart says so', () => {
    // ICU may answer Kolkata's older name.
    expect([zone, zone === 'Asia/Kolkata' ? 'Asia/Calcutta' : zone]).toContain(chartTimeZone());
    expect(new Date(2026, 10, 22).getTimezoneOffset()).toBe(zone === 'Asia/Kolkata' ? -330 : 480);
  });

  test('a 30-day range shows 30 days; title, axis and buckets agree on the first and last day', async () => {
    const range = defaultRange(local(2026, 11, 22, 17, 30));
    const events = [
      { at: local(2026, 10, 24, 0, 10), count: 1 },
      { at: local(2026, 11, 1, 0, 30), count: 2 },
      { at: local(2026, 11, 1, 23, 30), count: 4 },
      { at: local(2026, 11, 22, 23, 50), count: 8 },
    ];
    const answer = await historyInBuckets({ organizationId: 'o', workingKey: 'k', range }, serverHistory(events));
    expect(answer.history).toHaveLength(30);
    const starts = answer.history.map((window) => window.window_start);
    expect(starts).toEqual(rangeBuckets(range));
    expect(rangeSummary(range)).toBe('Oct 24 – Nov 22, 2026');
    expect(axisLabel('Daily', starts[0]!)).toBe('Oct 24');
    expect(axisLabel('Daily', starts.at(-1)!)).toBe('Nov 22');
    expect(axisTicks('Daily', starts).map((ws) => axisLabel('Daily', ws)).at(-1)).toBe('Nov 22');
    const countOn = (label: string) => answer.history.find((window) => windowLabel('Daily', window.window_start) === label)?.stats.docs.count;
    expect(countOn('Oct 24, 2026')).toBe(1);
    expect(countOn('Nov 1, 2026')).toBe(6);
    expect(countOn('Nov 22, 2026')).toBe(8);
    expect(answer.totals.docs.count).toBe(15);
    // The request starts at the first local midnight and ends with the last local day.
    const [request] = historyRequests(range);
    expect(request!.start_time).toBe(local(2026, 10, 24).getTime() / 1000);
    expect(request!.end_time).toBe(local(2026, 11, 23).getTime() / 1000 - 1);
  });

  test('an hourly day has its local hours, and drilling goes to the clicked day and hour', async () => {
    const daily = defaultRange(local(2026, 11, 22, 9));
    const days = rangeBuckets(daily);
    const hourly = drillDown(daily, days.at(-1)!)!;
    expect(hourly).toMatchObject({ granularity: 'Hourly', date: '2026-11-22' });
    expect(rangeSummary(hourly)).toBe('Nov 22, 2026, by hour');
    const answer = await historyInBuckets({ organizationId: 'o', workingKey: 'k', range: hourly }, serverHistory([{ at: local(2026, 11, 22, 18, 5), count: 3 }]));
    expect(answer.history).toHaveLength(24);
    expect(axisTicks('Hourly', answer.history.map((w) => w.window_start)).map((ws) => axisLabel('Hourly', ws))).toEqual(['6am', '12pm', '6pm']);
    const sixPm = answer.history.find((window) => axisLabel('Hourly', window.window_start) === '6pm')!;
    expect(sixPm.stats.docs.count).toBe(3);
    expect(drillDown(hourly, sixPm.window_start)).toMatchObject({ granularity: 'Minutely', date: '2026-11-22', hour: 18 });
  });

  test('the day the clocks change has its own number of hours and still folds into one day', () => {
    const range = { ...defaultRange(local(2026, 11, 1)), granularity: 'Hourly' as const, date: '2026-11-01' };
    expect(rangeBuckets(range)).toHaveLength(zone === 'America/Los_Angeles' ? 25 : 24);
  });
});
