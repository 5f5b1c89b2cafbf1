import {
  AGGREGATION_WINDOW_SECONDS,
  DOCUMENT_USAGE_METRICS,
  EMBED_USAGE_METRICS,
  MAX_USAGE_WINDOWS,
  QUERY_USAGE_METRICS,
  RERANK_USAGE_METRICS,
  type UsageAmount,
  type UsageMetric,
  type UsageKey,
  type UsageRequest,
} from '@sift/contracts';
import { foldDocumentUsage } from '../db/document-usage-pending.ts';
import type { Database } from '../db/schema.ts';
import { sumUsage, type UsageSums } from '../db/usage-buckets.ts';
import type { UsageSource } from '../db/usage-rollups.ts';
import { currentBillingPeriod } from './billing.ts';
import { Invalid } from './errors.ts';
import type { QueryUsage } from './query-usage.ts';

/**
 * Usage metering (spec §3 usage events, §7 Usage): counters over all time and the billing cycle,
 * and histories by minute, hour or day. What each metric's count and bytes are is defined once,
 * in db/usage-rollups.ts (and listed in the contracts, packages/contracts/src/provider/usage.ts).
 */
export interface UsageActor {
  organizationId: string;
  /** This server's query usage not yet written: flushed before a read. */
  queryUsage: QueryUsage;
}

export const usageMessages = {
  endBeforeStart: 'end_time must not be before start_time.',
  tooManyWindows: (windows: number, granularity: string) =>
    `Too many windows: this range holds ${windows} ${granularity} windows and a history holds at most ${MAX_USAGE_WINDOWS} ` +
    `(a minutely history covers at most 7 days). Narrow the range or choose a coarser aggregation_window.`,
} as const;

type Metrics = readonly UsageKey[];
const metricsOf: Record<UsageSource, Metrics> = {
  documents: DOCUMENT_USAGE_METRICS,
  queries: QUERY_USAGE_METRICS,
  reranker: RERANK_USAGE_METRICS,
  embed: EMBED_USAGE_METRICS,
};

const metricFrom = (sums: UsageSums | undefined, key: UsageKey): UsageMetric => ({
  count: sums?.[`${key}_count`] ?? 0,
  bytes: sums?.[`${key}_bytes`] ?? 0,
  billable_units: sums?.[`${key}_units`] ?? 0,
});
const amountFrom = (sums: UsageSums | undefined, key: UsageKey): UsageAmount => ({
  count: sums?.[`${key}_count`] ?? 0,
  bytes: sums?.[`${key}_bytes`] ?? 0,
});

/** Beyond any usage row: every Unix second a usage row can carry. */
const END_OF_TIME = 2 ** 52;

/** The billing cycle: the current subscription period, else the calendar month (UTC) now falls in. */
export async function billingCycle(database: Database, organizationId: string, now = new Date()): Promise<{ start: Date; end: Date }> {
  const period = await currentBillingPeriod(database, organizationId);
  return period ?? calendarMonth(now);
}

export function calendarMonth(now: Date): { start: Date; end: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/** Reads see every event: this process's buffered queries, and document events still pending (PostgreSQL). */
async function usageWritten(database: Database, actor: UsageActor): Promise<void> {
  await actor.queryUsage.flush();
  await foldDocumentUsage(database.db);
}

async function countersOf(database: Database, actor: UsageActor, sources: UsageSource[]) {
  const { organizationId } = actor;
  await usageWritten(database, actor);
  const cycle = await billingCycle(database, organizationId);
  const over = async (from: number, to: number) => {
    const stats: Partial<Record<UsageKey, UsageMetric>> = {};
    for (const source of sources) {
      const [sums] = await sumUsage(database, source, { organizationId, from, to });
      for (const key of metricsOf[source]) stats[key] = metricFrom(sums, key);
    }
    return stats;
  };
  return {
    all_time: await over(0, END_OF_TIME),
    billing_cycle: await over(Math.floor(cycle.start.getTime() / 1000), Math.floor(cycle.end.getTime() / 1000)),
  };
}

/** /usage/counters: Docs, OCR, Indexed and Queries over all time and the billing cycle. */
export async function getUsageCounters(database: Database, actor: UsageActor, _input: unknown = {}) {
  const counters = await countersOf(database, actor, ['documents', 'queries']);
  return counters as { all_time: Record<'docs' | 'ocr' | 'indexed' | 'queries', UsageMetric>; billing_cycle: Record<'docs' | 'ocr' | 'indexed' | 'queries', UsageMetric> };
}

/** /usage/models/counters: Rerank and Embed over all time and the billing cycle. */
export async function getModelsUsageCounters(database: Database, actor: UsageActor, _input: unknown = {}) {
  const counters = await countersOf(database, actor, ['reranker', 'embed']);
  return counters as { all_time: Record<'rerank' | 'embed', UsageMetric>; billing_cycle: Record<'rerank' | 'embed', UsageMetric> };
}

/** Window starts of a request's range, oldest first; 422 when the range is reversed or too long. */
export function historyWindows({ start_time, end_time, aggregation_window }: Pick<UsageRequest, 'start_time' | 'end_time' | 'aggregation_window'>): number[] {
  if (end_time < start_time) throw new Invalid(usageMessages.endBeforeStart);
  const size = AGGREGATION_WINDOW_SECONDS[aggregation_window];
  const count = Math.floor((end_time - start_time) / size) + 1;
  if (count > MAX_USAGE_WINDOWS) throw new Invalid(usageMessages.tooManyWindows(count, aggregation_window));
  return Array.from({ length: count }, (_, k) => start_time + k * size);
}

async function historyOf(database: Database, actor: UsageActor, input: UsageRequest, source: UsageSource) {
  const windows = historyWindows(input);
  await usageWritten(database, actor);
  const metrics = metricsOf[source];
  const collectionNames = source === 'reranker' || source === 'embed' ? undefined : (input.collection_names ?? undefined);
  const sums = await sumUsage(database, source, {
    organizationId: actor.organizationId,
    from: input.start_time,
    to: input.end_time + 1,
    collectionNames,
    buckets: { anchor: input.start_time, size: AGGREGATION_WINDOW_SECONDS[input.aggregation_window] },
  });
  const byWindow = new Map(sums.map((row) => [row.bucket, row]));
  const statsOf = (row: UsageSums | undefined) => Object.fromEntries(metrics.map((key) => [key, amountFrom(row, key)]));
  const totals = Object.fromEntries(
    metrics.map((key) => [key, { count: sums.reduce((sum, row) => sum + (row[`${key}_count`] ?? 0), 0), bytes: sums.reduce((sum, row) => sum + (row[`${key}_bytes`] ?? 0), 0) }]),
  );
  return {
    granularity: input.aggregation_window,
    start_time: input.start_time,
    end_time: input.end_time,
    history: windows.map((window_start) => ({ window_start, stats: statsOf(byWindow.get(window_start)) })),
    totals,
  };
}

type History<K extends UsageKey> = {
  granularity: UsageRequest['aggregation_window'];
  start_time: number;
  end_time: number;
  history: { window_start: number; stats: Record<K, UsageAmount> }[];
  totals: Record<K, UsageAmount>;
};

/** /usage/documents: Docs, OCR and Indexed by window, for all, some or none of the collections. */
export const getDocumentUsageHistory = (database: Database, actor: UsageActor, input: UsageRequest) =>
  historyOf(database, actor, input, 'documents') as Promise<History<'docs' | 'ocr' | 'indexed'>>;

/** /usage/queries: Queries by window, for all, some or none of the collections. */
export const getQueryUsageHistory = (database: Database, actor: UsageActor, input: UsageRequest) =>
  historyOf(database, actor, input, 'queries') as Promise<History<'queries'>>;

/** /usage/models/reranker: Rerank by window (reranker calls belong to no collection: collection_names is ignored). */
export const getRerankUsageHistory = (database: Database, actor: UsageActor, input: UsageRequest) =>
  historyOf(database, actor, input, 'reranker') as Promise<History<'rerank'>>;

/** /usage/models/embed: Embed by window (embedding calls belong to no collection: collection_names is ignored). */
export const getEmbedUsageHistory = (database: Database, actor: UsageActor, input: UsageRequest) =>
  historyOf(database, actor, input, 'embed') as Promise<History<'embed'>>;
