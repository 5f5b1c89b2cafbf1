import { USAGE_COUNT_SUFFIXES, USAGE_SIZE_STEP, USAGE_SIZE_UNITS } from '@/lib/constants';

/** Up to one decimal, without a trailing ".0": 1.5, 12, 999. */
const short = (value: number) => (Math.round(value * 10) / 10).toString();

/** Counts shortened with k, M, B (spec §9): 950, 1.5k, 2M, 3.1B. */
export function formatCount(count: number): string {
  let value = count;
  let step = 0;
  while (Math.abs(value) >= 1000 && step < USAGE_COUNT_SUFFIXES.length - 1) {
    value /= 1000;
    step += 1;
  }
  // 999,950 rounds to 1000k: say 1M instead.
  if (Math.abs(Math.round(value * 10) / 10) >= 1000 && step < USAGE_COUNT_SUFFIXES.length - 1) {
    value /= 1000;
    step += 1;
  }
  return `${short(value)}${USAGE_COUNT_SUFFIXES[step]}`;
}

/** Sizes in B, KB, MB, GB, TB by decimal steps of 1000 (spec §9): 999 B, 1.5 KB, 2 MB. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let step = 0;
  while (Math.abs(value) >= USAGE_SIZE_STEP && step < USAGE_SIZE_UNITS.length - 1) {
    value /= USAGE_SIZE_STEP;
    step += 1;
  }
  if (Math.abs(Math.round(value * 10) / 10) >= USAGE_SIZE_STEP && step < USAGE_SIZE_UNITS.length - 1) {
    value /= USAGE_SIZE_STEP;
    step += 1;
  }
  return `${short(value)} ${USAGE_SIZE_UNITS[step]}`;
}

/** The exact byte count a clicked size shows: "1,234,567 bytes". */
export const formatExactBytes = (bytes: number): string => `${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}`;

/** 'updated <1 min ago' or 'updated N min(s) ago' (spec §2). */
export function updatedLabel(updatedAt: number, now: number): string {
  const minutes = Math.floor((now - updatedAt) / 60_000);
  if (minutes < 1) return 'updated <1 min ago';
  return `updated ${minutes} ${minutes === 1 ? 'min' : 'mins'} ago`;
}

/** 12am, 1am ... 11am, 12pm, 1pm ... 11pm. */
export function hourLabel(hour: number): string {
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return `${twelve}${hour < 12 ? 'am' : 'pm'}`;
}

/**
 * A chart axis from 0 to a round top at least `minimum` (spec §9: 10 for counts, 1000 for bytes)
 * and its evenly spaced ticks: tops are 1, 2, 4, 5 or 8 times a power of ten, so ticks stay round.
 */
export function niceScale(value: number, minimum: number): { max: number; ticks: number[] } {
  const top = Math.max(value, minimum);
  const power = 10 ** Math.floor(Math.log10(top));
  const multiple = [1, 2, 4, 5, 8, 10].find((m) => m * power >= top) ?? 10;
  const max = multiple * power;
  const intervals = [2, 4, 8].includes(multiple) ? 4 : 5;
  return { max, ticks: Array.from({ length: intervals + 1 }, (_, i) => (max * i) / intervals) };
}
