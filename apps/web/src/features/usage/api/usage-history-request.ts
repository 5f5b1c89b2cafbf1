import type { UsageAmount, UsageRequest } from '@sift/contracts';
import { foldIntoBuckets, type HistoryRange, historyRequests, rangeBounds, rangeBuckets } from '../usage-range';

/** What a history query loads and is keyed on (spec §4: reload on each change). */
export interface UsageHistoryRequest {
  organizationId: string | null;
  workingKey: string | null;
  range: HistoryRange;
  /** Omitted (All) or the chosen collections, empty when none is chosen. */
  collectionNames?: string[];
}

export const historyKey = (name: string, { organizationId, workingKey, range, collectionNames }: UsageHistoryRequest) => {
  const { start, end } = rangeBounds(range);
  return ['usage', name, organizationId, workingKey, range.granularity, start, end, collectionNames ?? null] as const;
};

type Amounts = Record<string, UsageAmount>;
interface History<Stats extends Amounts> {
  history: { window_start: number; stats: Stats }[];
  totals: Stats;
}

/**
 * A history over the range's own bars: runs the range's calls (one, or several for long daily
 * ranges), folds their windows into the range's local days, hours or minutes, and adds up totals.
 */
export async function historyInBuckets<Stats extends Amounts>(
  { range, collectionNames }: UsageHistoryRequest,
  call: (body: UsageRequest) => Promise<History<Stats>>,
): Promise<History<Stats>> {
  const answers = await Promise.all(historyRequests(range).map((times) => call(collectionNames ? { ...times, collection_names: collectionNames } : times)));
  const totals: Amounts = {};
  for (const answer of answers) {
    for (const [metric, amount] of Object.entries(answer.totals)) {
      const sum = (totals[metric] ??= { count: 0, bytes: 0 });
      sum.count += amount.count;
      sum.bytes += amount.bytes;
    }
  }
  return { history: foldIntoBuckets(rangeBuckets(range), answers.flatMap((answer) => answer.history)), totals: totals as Stats };
}
