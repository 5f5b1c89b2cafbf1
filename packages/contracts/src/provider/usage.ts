import * as z from 'zod';
import { CollectionName } from './common.ts';

// Provider API "Usage": /usage/counters, /usage/models/counters, /usage/documents, /usage/queries,
// /usage/models/reranker (OpenAPI UsageRequest, AggregationWindow, UsageMetric, UsageStats,
// UsageCountersResponse, ModelsUsageStats, ModelsUsageCountersResponse).
//
// Histories: the OpenAPI description lists these hidden endpoints as arrays of raw rows
// (DocumentUsageResponse[] ...); Sift answers what the dashboard's usage history needs instead:
// the aggregation window, a time-sorted list of `{window_start, stats}`
// (one entry per window of the range, empty windows included) and totals per metric.
//
// What count and bytes mean, per metric (display names of spec §9):
//   Docs     documents added                      | bytes of the files added
//   OCR      pages read through OCR (parsing)     | bytes of the files parsed with OCR pages
//   Indexed  documents indexed                    | bytes of those documents' files
//   Queries  queries (every query type)           | UTF-8 bytes of the query texts
//   Rerank   reranker calls (/models/rerank, and  | request bytes (query + documents)
//            the queries' `reranker` option)
//   Embed    /models/embed calls (models only)    | request bytes (150 + bytes of each input)
// `billable_units` (counters only): Docs and Indexed content tokens, OCR pages, Queries count,
// Rerank reranker tokens, Embed input tokens.

/** Metric keys of spec §3 in display order, with their display names (spec §9). */
export const USAGE_METRIC_NAMES = { docs: 'Docs', ocr: 'OCR', indexed: 'Indexed', queries: 'Queries', rerank: 'Rerank' } as const;
export type UsageMetricKey = keyof typeof USAGE_METRIC_NAMES;
export const DOCUMENT_USAGE_METRICS = ['docs', 'ocr', 'indexed'] as const;
export const QUERY_USAGE_METRICS = ['queries'] as const;
export const RERANK_USAGE_METRICS = ['rerank'] as const;
/** Embedding usage: not a dashboard metric (spec §9 lists five), reported by the models usage routes. */
export const EMBED_USAGE_METRICS = ['embed'] as const;
/** Every metric a usage route reports. */
export type UsageKey = UsageMetricKey | (typeof EMBED_USAGE_METRICS)[number];

export const AggregationWindow = z.enum(['minutely', 'hourly', 'daily']);
export type AggregationWindow = z.infer<typeof AggregationWindow>;

/** Window length in seconds of each aggregation window. */
export const AGGREGATION_WINDOW_SECONDS: Record<AggregationWindow, number> = { minutely: 60, hourly: 3600, daily: 86_400 };

/**
 * The most windows one history may hold: 10,080, a week of minutes. Longer minutely ranges are
 * refused with 422 (hourly: 420 days; daily: 27 years).
 */
export const MAX_USAGE_WINDOWS = 10_080;

const UnixSeconds = z.number().int().nonnegative();

export const UsageRequest = z.object({
  /** Unix seconds, inclusive. Windows are laid out from here: window k is [start + k·w, start + (k+1)·w). */
  start_time: UnixSeconds,
  /** Unix seconds, inclusive. */
  end_time: UnixSeconds,
  aggregation_window: AggregationWindow,
  /** Absent or null: every collection. An empty list: none. Ignored by the models histories. */
  collection_names: z.array(CollectionName).nullish(),
});
export type UsageRequest = z.infer<typeof UsageRequest>;

/** `{count, bytes}` of one metric over a window or a range. */
export const UsageAmount = z.object({ count: z.number().int(), bytes: z.number().int() });
export type UsageAmount = z.infer<typeof UsageAmount>;

/** A counters metric (OpenAPI UsageMetric). */
export const UsageMetric = UsageAmount.extend({ billable_units: z.number().int() });
export type UsageMetric = z.infer<typeof UsageMetric>;

export const UsageStats = z.object({ docs: UsageMetric, ocr: UsageMetric, indexed: UsageMetric, queries: UsageMetric });
export type UsageStats = z.infer<typeof UsageStats>;

/** /usage/counters: since the beginning, and over the current billing cycle. */
export const UsageCountersResponse = z.object({ all_time: UsageStats, billing_cycle: UsageStats });
export type UsageCountersResponse = z.infer<typeof UsageCountersResponse>;

/** Models counters: reranker and embedding calls. */
export const ModelsUsageStats = z.object({ rerank: UsageMetric, embed: UsageMetric });
export type ModelsUsageStats = z.infer<typeof ModelsUsageStats>;

export const ModelsUsageCountersResponse = z.object({ all_time: ModelsUsageStats, billing_cycle: ModelsUsageStats });
export type ModelsUsageCountersResponse = z.infer<typeof ModelsUsageCountersResponse>;

const historyOf = <Keys extends readonly [UsageKey, ...UsageKey[]]>(keys: Keys, windowStart: z.ZodType<number>) => {
  const stats = z.object(Object.fromEntries(keys.map((key) => [key, UsageAmount])) as { [K in Keys[number]]: typeof UsageAmount });
  return z.object({
    granularity: AggregationWindow,
    start_time: z.number().int(),
    end_time: z.number().int(),
    /** Every window of the range, oldest first. */
    history: z.array(z.object({ window_start: windowStart, stats })),
    totals: stats,
  });
};

/** /usage/documents as the server answers it. */
export const DocumentUsageHistoryResponse = historyOf(DOCUMENT_USAGE_METRICS, z.number().int());
export type DocumentUsageHistoryResponse = z.infer<typeof DocumentUsageHistoryResponse>;
/** /usage/queries as the server answers it. */
export const QueryUsageHistoryResponse = historyOf(QUERY_USAGE_METRICS, z.number().int());
export type QueryUsageHistoryResponse = z.infer<typeof QueryUsageHistoryResponse>;
/** /usage/models/reranker as the server answers it. */
export const RerankUsageHistoryResponse = historyOf(RERANK_USAGE_METRICS, z.number().int());
export type RerankUsageHistoryResponse = z.infer<typeof RerankUsageHistoryResponse>;
/** /usage/models/embed as the server answers it. */
export const EmbedUsageHistoryResponse = historyOf(EMBED_USAGE_METRICS, z.number().int());
export type EmbedUsageHistoryResponse = z.infer<typeof EmbedUsageHistoryResponse>;

// ---- What the dashboard accepts on receipt (spec §5): window_start as a number or a numeric string.

/** A Unix-seconds window start given as a number or a numeric string; anything else is refused. */
export const ReceivedWindowStart = z
  .union([z.number(), z.string()], { error: 'window_start must be a number or a numeric string' })
  .transform((value, context) => {
    const seconds = typeof value === 'number' ? value : value.trim() === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(seconds)) {
      context.addIssue({ code: 'custom', message: `window_start is not a valid timestamp: ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return seconds;
  });

export const ReceivedDocumentUsageHistory = historyOf(DOCUMENT_USAGE_METRICS, ReceivedWindowStart as unknown as z.ZodType<number>);
export const ReceivedQueryUsageHistory = historyOf(QUERY_USAGE_METRICS, ReceivedWindowStart as unknown as z.ZodType<number>);
export const ReceivedRerankUsageHistory = historyOf(RERANK_USAGE_METRICS, ReceivedWindowStart as unknown as z.ZodType<number>);

const ReceivedUsageStats = z.object({ docs: UsageAmount, ocr: UsageAmount, indexed: UsageAmount, queries: UsageAmount });
/** Counters as the dashboard needs them: `{count, bytes}` per metric (extra fields ignored). */
export const ReceivedUsageCounters = z.object({ all_time: ReceivedUsageStats, billing_cycle: ReceivedUsageStats });
export type ReceivedUsageCounters = z.infer<typeof ReceivedUsageCounters>;
export const ReceivedModelsUsageCounters = z.object({
  all_time: z.object({ rerank: UsageAmount }),
  billing_cycle: z.object({ rerank: UsageAmount }),
});
export type ReceivedModelsUsageCounters = z.infer<typeof ReceivedModelsUsageCounters>;
