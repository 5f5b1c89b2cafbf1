import { type RawBuilder, sql } from 'kysely';
import type { Database, Dialect } from './schema.ts';
import { HOUR_SECONDS, type UsageSource, usageSources } from './usage-rollups.ts';

/**
 * Window buckets in SQL. A history's windows are laid out from its start: window k covers
 * [anchor + k·size, anchor + (k+1)·size). A minute row belongs to the window its minute starts in.
 */
export interface Buckets {
  anchor: number;
  size: number;
}

/** The start of the window a row's `window_start` falls in (rows at or after the anchor only). */
export function windowBucket(dialect: Dialect, column: string, { anchor, size }: Buckets): RawBuilder<number> {
  const ref = sql.ref(column);
  if (!Number.isSafeInteger(anchor) || !Number.isSafeInteger(size) || size <= 0) throw new Error('bucket anchor and size must be integers');
  // Integer arithmetic on both sides; PostgreSQL is told the literals are bigint so `%` stays integral.
  return dialect === 'postgres'
    ? sql<number>`(${ref} - ((${ref} - ${sql.lit(anchor)}::bigint) % ${sql.lit(size)}::bigint))`
    : sql<number>`(${ref} - ((${ref} - ${sql.lit(anchor)}) % ${sql.lit(size)}))`;
}

export interface UsageSelection {
  organizationId: string;
  /** Unix seconds, inclusive: minute rows whose window_start is in [from, to). */
  from: number;
  /** Unix seconds, exclusive. */
  to: number;
  /** Absent: every collection; a list: only those collections (by name). */
  collectionNames?: string[];
  /** Group by window; absent: one total row. */
  buckets?: Buckets;
}

/** Sums of each metric column of a source (see usageSources), by window when asked. */
export type UsageSums = { bucket: number } & Record<string, number>;

interface Part {
  level: 'minute' | 'hour';
  from: number;
  to: number;
}

/** Beyond this many window edges inside hours, a range is read minute by minute (one query per edge hour otherwise). */
const MAX_EDGE_HOURS = 400;

/**
 * Splits [from, to) into whole UTC hours (read from the hourly rollup) and minutes (read from the
 * minute table): the minutes before the first whole hour and after the last, and every hour a
 * window edge falls inside (windows laid out from a start on a half hour, such as days in
 * UTC+5:30), since such an hour's rollup row would straddle two windows.
 */
export function splitRange(from: number, to: number, buckets?: Buckets): Part[] {
  const minutesOnly = from < to ? [{ level: 'minute' as const, from, to }] : [];
  const firstHour = Math.ceil(from / HOUR_SECONDS) * HOUR_SECONDS;
  const lastHour = Math.floor(to / HOUR_SECONDS) * HOUR_SECONDS;
  if (firstHour >= lastHour) return minutesOnly;
  const edgeHours: number[] = [];
  if (buckets) {
    // Windows shorter than an hour, or not made of whole hours, cannot use hourly rows at all.
    if (buckets.size % HOUR_SECONDS !== 0) return minutesOnly;
    const offset = buckets.anchor % HOUR_SECONDS;
    if (offset !== 0) {
      if (buckets.size === HOUR_SECONDS) return minutesOnly;
      for (let edge = buckets.anchor + buckets.size; edge - offset < lastHour; edge += buckets.size) {
        if (edge - offset >= firstHour) edgeHours.push(edge - offset);
        if (edgeHours.length > MAX_EDGE_HOURS) return minutesOnly;
      }
    }
  }
  const parts: Part[] = [{ level: 'minute', from, to: firstHour }];
  let cursor = firstHour;
  for (const hour of edgeHours) {
    parts.push({ level: 'hour', from: cursor, to: hour }, { level: 'minute', from: hour, to: hour + HOUR_SECONDS });
    cursor = hour + HOUR_SECONDS;
  }
  parts.push({ level: 'hour', from: cursor, to: lastHour }, { level: 'minute', from: lastHour, to });
  return parts.filter((part) => part.from < part.to);
}

/** GROUP BY window in SQL over the minute table and the hourly rollup; parts are merged by window. */
export async function sumUsage(database: Database, source: UsageSource, selection: UsageSelection): Promise<UsageSums[]> {
  const definition = usageSources[source];
  const metricColumns = Object.keys(definition.metrics(''));
  if (selection.collectionNames?.length === 0) return [];
  const merged = new Map<number, UsageSums>();
  for (const part of splitRange(selection.from, selection.to, selection.buckets)) {
    const table = part.level === 'hour' ? definition.rollup : definition.table;
    const minuteMetrics = definition.metrics('u.');
    const sums = metricColumns.map((column) =>
      sql`coalesce(sum(${sql.raw(part.level === 'hour' ? `u.${column}` : minuteMetrics[column]!)}), 0) as ${sql.ref(column)}`,
    );
    const bucket = selection.buckets ? windowBucket(database.dialect, 'u.window_start', selection.buckets) : sql<number>`0`;
    const collectionFilter =
      selection.collectionNames && definition.carried.includes('collection_name')
        ? sql`and u.collection_name in (${sql.join(selection.collectionNames)})`
        : sql``;
    const { rows } = await sql<Record<string, number | string>>`
      select ${bucket} as bucket, ${sql.join(sums)}
      from ${sql.table(table)} u
      where u.organization_id = ${selection.organizationId}
        and u.window_start >= ${part.from} and u.window_start < ${part.to}
        ${collectionFilter}
      group by 1`.execute(database.db);
    for (const row of rows) {
      const key = Number(row.bucket);
      const into = merged.get(key) ?? ({ bucket: key, ...Object.fromEntries(metricColumns.map((c) => [c, 0])) } as UsageSums);
      for (const column of metricColumns) into[column] = (into[column] ?? 0) + Number(row[column] ?? 0);
      merged.set(key, into);
    }
  }
  return [...merged.values()].sort((a, b) => a.bucket - b.bucket);
}
