import type { AggregationWindow } from '@sift/contracts';
import { USAGE_DAY_AXIS_MAX_LABELS, USAGE_DEFAULT_DAYS, USAGE_HOUR_AXIS_LABEL_HOURS, USAGE_MINUTE_AXIS_LABEL_MINUTES } from '@/lib/constants';
import { hourLabel } from './usage-format';

/**
 * The History range of the Usage screen (spec §2, §9), in the browser's time zone: Daily from a
 * start date to an end date, Hourly one date, Minutely one date and hour. Windows are laid out
 * from the range's start (local midnight or the chosen hour), so they are the user's days and hours.
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

/** start_time and end_time (Unix seconds, inclusive) and the aggregation window of a range. */
export function requestTimes(range: HistoryRange): { start_time: number; end_time: number; aggregation_window: AggregationWindow } {
  const aggregation_window = AGGREGATION_WINDOWS[range.granularity];
  if (range.granularity === 'Daily') {
    return { start_time: seconds(parseDate(range.startDate)), end_time: seconds(addDays(parseDate(range.endDate), 1)) - 1, aggregation_window };
  }
  const day = parseDate(range.date);
  if (range.granularity === 'Hourly') return { start_time: seconds(day), end_time: seconds(addDays(day, 1)) - 1, aggregation_window };
  const start = new Date(day.getFullYear(), day.getMonth(), day.getDate(), range.hour);
  return { start_time: seconds(start), end_time: seconds(start) + 3599, aggregation_window };
}

/** True when the range holds the current moment (the freshness label shows then). */
export function includesNow(range: HistoryRange, now = Date.now()): boolean {
  const { start_time, end_time } = requestTimes(range);
  return start_time * 1000 <= now && now < (end_time + 1) * 1000;
}

/**
 * The local moment a window stands for. Daily windows are 24 h from local midnight, so after a
 * daylight-saving change they start an hour off; their middle is always on the right day.
 */
const windowDate = (granularity: Granularity, windowStart: number) => new Date((windowStart + (granularity === 'Daily' ? 43_200 : 0)) * 1000);

/** Clicking a point: Daily goes to Hourly for that date, Hourly to Minutely for that hour; Minutely stays. */
export function drillDown(range: HistoryRange, windowStart: number): HistoryRange | null {
  const at = windowDate(range.granularity, windowStart);
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
  const at = windowDate(granularity, windowStart);
  if (granularity === 'Daily') return fullDate(at);
  if (granularity === 'Hourly') return `${monthDay(at)}, ${hourLabel(at.getHours())}`;
  return clock(at);
}

/** A window as the axis names it: "Nov 22", "6am", "3:30pm". */
export function axisLabel(granularity: Granularity, windowStart: number): string {
  const at = windowDate(granularity, windowStart);
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
