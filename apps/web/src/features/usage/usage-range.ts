import { type AggregationWindow, MAX_USAGE_WINDOWS } from '@sift/contracts';
import { USAGE_DAY_AXIS_MAX_LABELS, USAGE_DEFAULT_DAYS, USAGE_HOUR_AXIS_LABEL_HOURS, USAGE_MINUTE_AXIS_LABEL_MINUTES } from '@/lib/constants';
import { hourLabel } from './usage-format';

/**
 * The History range of the Usage screen (spec §2, §9), in the browser's time zone: Daily from a
 * start date to an end date, Hourly one date, Minutely one date and hour. The request, the bars,
 * the title and the axis all stand for the same instants: the user's local days and hours.
 */
export type Granularity = 'Daily' | 'Hourly' | 'Minutely';
export const GRANULARITIES: Granularity[] = ['Daily', 'Hourly', 'Minutely'];
/** The toggle's labels (spec §3). */
export const GRANULARITY_LABELS: Record<Granularity, string> = { Daily: 'day', Hourly: 'hr', Minutely: 'minute' };
export const AGGREGATION_WINDOWS: Record<Granularity, AggregationWindow> = { Daily: 'daily', Hourly: 'hourly', Minutely: 'minutely' };

export interface HistoryRange {
  granularity: Granularity;
  /** Daily: first and last day, YYYY-MM-DD. */
  startDate: string;
  endDate: string;
  /** Hourly and Minutely: the day, YYYY-MM-DD. */
  date: string;
  /** Minutely: the hour, 0-23. */
  hour: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A local date as the native date input writes it: YYYY-MM-DD. */
export const isoDate = (date: Date): string => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
/** Local midnight of a YYYY-MM-DD date. */
export function parseDate(value: string): Date {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, day);
}
const addDays = (date: Date, days: number) => new Date(date.getFullYear(), date.getMonth(), date.getDate() + days, date.getHours());
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Daily over the last 30 days including today; the date today and the current hour (spec §9). */
export function defaultRange(now = new Date()): HistoryRange {
  return {
    granularity: 'Daily',
    startDate: isoDate(addDays(now, -(USAGE_DEFAULT_DAYS - 1))),
    endDate: isoDate(now),
    date: isoDate(now),
    hour: now.getHours(),
  };
}

/** The instants a range covers, in Unix seconds: [start, end). Days and hours are the browser's. */
export function rangeBounds(range: HistoryRange): { start: number; end: number } {
  if (range.granularity === 'Daily') return { start: seconds(parseDate(range.startDate)), end: seconds(addDays(parseDate(range.endDate), 1)) };
  const day = parseDate(range.date);
  if (range.granularity === 'Hourly') return { start: seconds(day), end: seconds(addDays(day, 1)) };
  const start = seconds(new Date(day.getFullYear(), day.getMonth(), day.getDate(), range.hour));
  return { start, end: start + 3600 };
}

/**
 * Where each bar of a range starts (Unix seconds): Daily the local midnight of each day, Hourly
 * each hour of the local day (23 or 25 on a daylight-saving change), Minutely the 60 minutes.
 */
export function rangeBuckets(range: HistoryRange): number[] {
  const { start, end } = rangeBounds(range);
  if (range.granularity === 'Daily') {
    const first = parseDate(range.startDate);
    const days = dayCount(range);
    return Array.from({ length: days }, (_, k) => seconds(addDays(first, k)));
  }
  const step = range.granularity === 'Hourly' ? 3600 : 60;
  return Array.from({ length: (end - start) / step }, (_, k) => start + k * step);
}

const dayCount = (range: HistoryRange) => Math.max(1, Math.round((parseDate(range.endDate).getTime() - parseDate(range.startDate).getTime()) / 86_400_000) + 1);

/** Days one hourly request may hold: a history holds at most MAX_USAGE_WINDOWS windows, a day at most 25 hours. */
const DAYS_PER_REQUEST = Math.floor(MAX_USAGE_WINDOWS / 25);

export interface HistoryRequestTimes {
  start_time: number;
  end_time: number;
  aggregation_window: AggregationWindow;
}

/**
 * The history calls that fetch a range (start and end inclusive, spec §7). The server lays windows
 * of fixed length from start_time, so a day-long window drifts by an hour after a daylight-saving
 * change: Daily asks for hours (in pieces when the range holds more than one history may) and
 * folds them into local days with `foldIntoBuckets`.
 */
export function historyRequests(range: HistoryRange): HistoryRequestTimes[] {
  const { start, end } = rangeBounds(range);
  if (range.granularity !== 'Daily') return [{ start_time: start, end_time: end - 1, aggregation_window: AGGREGATION_WINDOWS[range.granularity] }];
  const first = parseDate(range.startDate);
  const days = dayCount(range);
  const requests: HistoryRequestTimes[] = [];
  for (let day = 0; day < days; day += DAYS_PER_REQUEST) {
    const from = seconds(addDays(first, day));
    const to = seconds(addDays(first, Math.min(day + DAYS_PER_REQUEST, days)));
    requests.push({ start_time: from, end_time: to - 1, aggregation_window: 'hourly' });
  }
  return requests;
}

/** Lays windows into the range's buckets: each window is added to the last bucket starting at or before it. */
export function foldIntoBuckets<Stats extends Record<string, { count: number; bytes: number }>>(
  buckets: number[],
  windows: { window_start: number; stats: Stats }[],
): { window_start: number; stats: Stats }[] {
  const folded = buckets.map((window_start) => ({ window_start, stats: {} as Record<string, { count: number; bytes: number }> }));
  let bucket = 0;
  for (const window of [...windows].sort((a, b) => a.window_start - b.window_start)) {
    if (window.window_start < (buckets[0] ?? 0)) continue;
    while (bucket + 1 < buckets.length && buckets[bucket + 1]! <= window.window_start) bucket += 1;
    const into = folded[bucket]!.stats;
    for (const [metric, amount] of Object.entries(window.stats)) {
      const sum = (into[metric] ??= { count: 0, bytes: 0 });
      sum.count += amount.count;
      sum.bytes += amount.bytes;
    }
  }
  return folded as { window_start: number; stats: Stats }[];
}

/** True when the range holds the current moment (the freshness label shows then). */
export function includesNow(range: HistoryRange, now = Date.now()): boolean {
  const { start, end } = rangeBounds(range);
  return start * 1000 <= now && now < end * 1000;
}

/** The time zone the charts' days and hours are in: the browser's ("America/Los_Angeles"). */
export const chartTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const windowDate = (windowStart: number) => new Date(windowStart * 1000);

/** The bar at `x` pixels into a plot `width` wide holding `count` bars of equal width; null outside. */
export function pointIndexAt(x: number, width: number, count: number): number | null {
  if (count === 0 || width <= 0 || x < 0 || x >= width) return null;
  return Math.min(count - 1, Math.floor((x / width) * count));
}

/** Clicking a point: Daily goes to Hourly for that date, Hourly to Minutely for that hour; Minutely stays. */
export function drillDown(range: HistoryRange, windowStart: number): HistoryRange | null {
  const at = windowDate(windowStart);
  if (range.granularity === 'Daily') return { ...range, granularity: 'Hourly', date: isoDate(at) };
  if (range.granularity === 'Hourly') return { ...range, granularity: 'Minutely', date: isoDate(at), hour: at.getHours() };
  return null;
}

const monthDay = (date: Date) => date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
const fullDate = (date: Date) => date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const clock = (date: Date) => `${date.getHours() % 12 === 0 ? 12 : date.getHours() % 12}:${pad(date.getMinutes())}${date.getHours() < 12 ? 'am' : 'pm'}`;

/** What a chart title says of its range: "Oct 24 – Nov 22, 2026", "Nov 22, 2026, by hour", "Nov 22, 2026, 3pm – 4pm". */
export function rangeSummary(range: HistoryRange): string {
  if (range.granularity === 'Daily') {
    const start = parseDate(range.startDate);
    const end = parseDate(range.endDate);
    if (range.startDate === range.endDate) return fullDate(start);
    return start.getFullYear() === end.getFullYear() ? `${monthDay(start)} – ${fullDate(end)}` : `${fullDate(start)} – ${fullDate(end)}`;
  }
  const day = fullDate(parseDate(range.date));
  if (range.granularity === 'Hourly') return `${day}, by hour`;
  return `${day}, ${hourLabel(range.hour)} – ${hourLabel((range.hour + 1) % 24)}, by minute`;
}

/** A window as the tooltip names it. */
export function windowLabel(granularity: Granularity, windowStart: number): string {
  const at = windowDate(windowStart);
  if (granularity === 'Daily') return fullDate(at);
  if (granularity === 'Hourly') return `${monthDay(at)}, ${hourLabel(at.getHours())}`;
  return clock(at);
}

/** A window as the axis names it: "Nov 22", "6am", "3:30pm". */
export function axisLabel(granularity: Granularity, windowStart: number): string {
  const at = windowDate(windowStart);
  if (granularity === 'Daily') return monthDay(at);
  if (granularity === 'Hourly') return hourLabel(at.getHours());
  return clock(at);
}

/**
 * The windows the axis labels (spec §9): by day at most 5, spread evenly with the first and last;
 * by hour 6am, 12pm and 6pm; by minute three points (:00, :30, :59).
 */
export function axisTicks(granularity: Granularity, windowStarts: number[]): number[] {
  if (granularity === 'Daily') {
    const n = windowStarts.length;
    if (n <= USAGE_DAY_AXIS_MAX_LABELS) return windowStarts;
    const picks = new Set(Array.from({ length: USAGE_DAY_AXIS_MAX_LABELS }, (_, k) => Math.round((k * (n - 1)) / (USAGE_DAY_AXIS_MAX_LABELS - 1))));
    return [...picks].map((index) => windowStarts[index]!);
  }
  if (granularity === 'Hourly') {
    return windowStarts.filter((ws) => (USAGE_HOUR_AXIS_LABEL_HOURS as readonly number[]).includes(new Date(ws * 1000).getHours()));
  }
  return windowStarts.filter((ws) => (USAGE_MINUTE_AXIS_LABEL_MINUTES as readonly number[]).includes(new Date(ws * 1000).getMinutes()));
}
