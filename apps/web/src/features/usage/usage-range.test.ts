import { describe, expect, test } from 'vitest';
import { axisLabel, axisTicks, defaultRange, drillDown, historyRequests, includesNow, pointIndexAt, rangeBuckets, rangeSummary } from './usage-range';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);
const s = (date: Date) => date.getTime() / 1000;

describe('usage history range', () => {
  test('the default is Daily over today minus 29 days to today, with the current hour', () => {
    const range = defaultRange(local(2026, 11, 22, 14, 37));
    expect(range).toEqual({ granularity: 'Daily', startDate: '2026-10-24', endDate: '2026-11-22', date: '2026-11-22', hour: 14 });
    expect(defaultRange(local(2026, 3, 1, 0, 5)).startDate).toBe('2026-01-31');
  });

  test('start and end are built from the dates and hour (inclusive seconds); days are fetched by the hour', () => {
    const base = defaultRange(local(2026, 11, 22, 14));
    expect(historyRequests(base)).toEqual([{ start_time: s(local(2026, 10, 24)), end_time: s(local(2026, 11, 23)) - 1, aggregation_window: 'hourly' }]);
    expect(historyRequests({ ...base, granularity: 'Hourly' })).toEqual([{ start_time: s(local(2026, 11, 22)), end_time: s(local(2026, 11, 23)) - 1, aggregation_window: 'hourly' }]);
    expect(historyRequests({ ...base, granularity: 'Minutely' })).toEqual([
      { start_time: s(local(2026, 11, 22, 14)), end_time: s(local(2026, 11, 22, 15)) - 1, aggregation_window: 'minutely' },
    ]);
  });

  test('a range longer than one history holds is fetched in back-to-back pieces', () => {
    const requests = historyRequests({ ...defaultRange(local(2026, 11, 22)), startDate: '2024-01-01', endDate: '2026-11-22' });
    expect(requests.length).toBeGreaterThan(1);
    expect(requests[0]!.start_time).toBe(s(local(2024, 1, 1)));
    expect(requests.at(-1)!.end_time).toBe(s(local(2026, 11, 23)) - 1);
    for (let k = 1; k < requests.length; k += 1) expect(requests[k]!.start_time).toBe(requests[k - 1]!.end_time + 1);
  });

  test('a click maps to the bar under it, never to the first bar by default', () => {
    expect(pointIndexAt(299, 300, 30)).toBe(29);
    expect(pointIndexAt(0, 300, 30)).toBe(0);
    expect(pointIndexAt(155, 300, 30)).toBe(15);
    expect(pointIndexAt(-1, 300, 30)).toBeNull();
    expect(pointIndexAt(300, 300, 30)).toBeNull();
    expect(pointIndexAt(10, 300, 0)).toBeNull();
  });

  test('the bars are the local days, hours and minutes of the range', () => {
    const base = defaultRange(local(2026, 11, 22, 14));
    expect(rangeBuckets(base)).toHaveLength(30);
    expect(rangeBuckets({ ...base, granularity: 'Minutely' })).toHaveLength(60);
  });

  test('the range includes now only while its last window has not ended', () => {
    const range = defaultRange(local(2026, 11, 22, 14));
    expect(includesNow(range, local(2026, 11, 22, 23, 59).getTime())).toBe(true);
    expect(includesNow(range, local(2026, 11, 23).getTime())).toBe(false);
    expect(includesNow({ ...range, granularity: 'Minutely' }, local(2026, 11, 22, 15).getTime())).toBe(false);
  });

  test('drill-down goes from a day to its hours, from an hour to its minutes, and no further', () => {
    const range = defaultRange(local(2026, 11, 22, 14));
    const hourly = drillDown(range, s(local(2026, 11, 3)));
    expect(hourly).toMatchObject({ granularity: 'Hourly', date: '2026-11-03' });
    const minutely = drillDown(hourly!, s(local(2026, 11, 3, 17)));
    expect(minutely).toMatchObject({ granularity: 'Minutely', date: '2026-11-03', hour: 17 });
    expect(drillDown(minutely!, s(local(2026, 11, 3, 17, 5)))).toBeNull();
  });

  test('axis labels: at most 5 by day, 6am/12pm/6pm by hour, three by minute', () => {
    const days = Array.from({ length: 30 }, (_, k) => s(local(2026, 10, 24 + k)));
    const dayTicks = axisTicks('Daily', days);
    expect(dayTicks).toHaveLength(5);
    expect(dayTicks[0]).toBe(days[0]);
    expect(dayTicks[4]).toBe(days[29]);
    expect(axisTicks('Daily', days.slice(0, 3))).toHaveLength(3);
    const hours = Array.from({ length: 24 }, (_, h) => s(local(2026, 11, 22, h)));
    expect(axisTicks('Hourly', hours).map((ws) => axisLabel('Hourly', ws))).toEqual(['6am', '12pm', '6pm']);
    const minutes = Array.from({ length: 60 }, (_, m) => s(local(2026, 11, 22, 15, m)));
    expect(axisTicks('Minutely', minutes).map((ws) => axisLabel('Minutely', ws))).toEqual(['3:00pm', '3:30pm', '3:59pm']);
    expect(axisLabel('Daily', days[0]!)).toBe('Oct 24');
  });

  test('the chart title summarises the range', () => {
    const range = defaultRange(local(2026, 11, 22, 14));
    expect(rangeSummary(range)).toBe('Oct 24 – Nov 22, 2026');
    expect(rangeSummary({ ...range, startDate: '2025-12-30' })).toBe('Dec 30, 2025 – Nov 22, 2026');
    expect(rangeSummary({ ...range, granularity: 'Hourly' })).toBe('Nov 22, 2026, by hour');
    expect(rangeSummary({ ...range, granularity: 'Minutely' })).toBe('Nov 22, 2026, 2pm – 3pm, by minute');
  });
});
