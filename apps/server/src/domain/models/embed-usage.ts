import type { Database } from '../../db/schema.ts';
import { addingCounters, minuteWindow } from '../usage-events.ts';

/** One /models/embed call, counted per organization, model and minute. */
export interface EmbedUsage {
  organizationId: string;
  embeddingModel: string;
  requestBytes: number;
  requestTokens: number;
  timeTakenMs: number;
  /** When the call happened (ms); picks the minute window. */
  at: number;
}

/** Adds one event to the organization's row for that model and minute (created if absent). */
export async function recordEmbedUsage({ db }: Database, usage: EmbedUsage): Promise<void> {
  await db
    .insertInto('embed_usage')
    .values({
      window_start: minuteWindow(usage.at),
      organization_id: usage.organizationId,
      embedding_model: usage.embeddingModel,
      // Sift embeds only when asked: every event is an explicit call.
      explicit_call: 1,
      event_count: 1,
      total_request_bytes: usage.requestBytes,
      total_request_tokens: usage.requestTokens,
      total_time_taken_ms: Math.round(usage.timeTakenMs),
    })
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'window_start', 'embedding_model', 'explicit_call'])
        .doUpdateSet(addingCounters('embed_usage', ['event_count', 'total_request_bytes', 'total_request_tokens', 'total_time_taken_ms'])),
    )
    .execute();
}
