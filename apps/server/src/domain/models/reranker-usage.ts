import type { Database } from '../../db/schema.ts';
import { addingCounters, minuteWindow } from '../usage-events.ts';

/** One reranker call, as spec §3's reranker usage event counts it. */
export interface RerankerUsage {
  organizationId: string;
  rerankerModel: string;
  /** True for /models/rerank; false when Sift reranks on its own behalf. */
  explicitCall: boolean;
  requestBytes: number;
  rerankerTokens: number;
  documentsReranked: number;
  timeTakenMs: number;
  rerankingTimeMs: number;
  /** When the call happened (ms); picks the minute window. */
  at: number;
}

/** Adds one event to the organization's row for that model, kind and minute (created if absent). */
export async function recordRerankerUsage({ db }: Database, usage: RerankerUsage): Promise<void> {
  const row = {
    window_start: minuteWindow(usage.at),
    organization_id: usage.organizationId,
    reranker_model: usage.rerankerModel,
    explicit_call: usage.explicitCall ? 1 : 0,
    event_count: 1,
    total_request_bytes: usage.requestBytes,
    total_reranker_tokens: usage.rerankerTokens,
    total_documents_reranked: usage.documentsReranked,
    // Whole milliseconds: the columns are integers on both dialects.
    total_time_taken_ms: Math.round(usage.timeTakenMs),
    total_reranking_time_ms: Math.round(usage.rerankingTimeMs),
  };
  await db
    .insertInto('reranker_usage')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'window_start', 'reranker_model', 'explicit_call'])
        .doUpdateSet(
          addingCounters('reranker_usage', [
            'event_count',
            'total_request_bytes',
            'total_reranker_tokens',
            'total_documents_reranked',
            'total_time_taken_ms',
            'total_reranking_time_ms',
          ]),
        ),
    )
    .execute();
}
