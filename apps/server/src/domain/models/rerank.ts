import type { ModelLatency, RerankRequest, RerankResponse } from '@sift/contracts';
import type { Database } from '../../db/schema.ts';
import { countTokens } from '../../engine/ingest/tokens.ts';
import { Invalid } from '../errors.ts';
import { MODEL_MAX_REQUEST_BYTES, MODEL_REQUEST_BYTE_OVERHEAD, RATE_LIMIT_WINDOW_MS, RERANK_BYTES_PER_MINUTE } from '../limits.ts';
import type { ProviderActor } from '../provider-actor.ts';
import type { ByteBudget } from './rate-limit.ts';
import { rerankModel } from './registry.ts';
import { recordRerankerUsage } from './reranker-usage.ts';
import { utf8Bytes } from '../../engine/models/text.ts';

export type RerankActor = Pick<ProviderActor, 'organizationId' | 'rerankLimiter' | 'now'>;

/** The reranker's per-organization budget of spec §9, counted as the OpenAPI description counts bytes. */
export const rerankBudget: ByteBudget = {
  name: 'rerank',
  budgetBytes: RERANK_BYTES_PER_MINUTE,
  windowMs: RATE_LIMIT_WINDOW_MS,
  describe: (budget) => `Rate limit exceeded: the reranker allows ${budget.toLocaleString('en-US')} bytes per minute per organization.`,
};

/** OpenAPI: sum(150 + query bytes + document bytes), the query counted once per document. */
export function rerankRequestBytes(query: string, documents: readonly string[]): number {
  const perDocument = MODEL_REQUEST_BYTE_OVERHEAD + utf8Bytes(query);
  return documents.reduce((sum, document) => sum + perDocument + utf8Bytes(document), 0);
}

/**
 * The organization's reranker limits: the admin API's overrides where set (a `slow` call uses
 * the slow override when there is one), else spec §9's budget and the OpenAPI's per-request cap.
 */
export async function rerankLimitsOf({ db }: Database, organizationId: string, latency: ModelLatency | null | undefined) {
  const row = await db
    .selectFrom('organizations')
    .select(['override_bpm_fast', 'override_bpm_slow', 'override_max_bytes_per_request'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  const fast = row?.override_bpm_fast ? Number(row.override_bpm_fast) : null;
  const slow = row?.override_bpm_slow ? Number(row.override_bpm_slow) : null;
  return {
    bytesPerMinute: (latency === 'slow' ? (slow ?? fast) : fast) ?? RERANK_BYTES_PER_MINUTE,
    maxBytesPerRequest: row?.override_max_bytes_per_request ? Number(row.override_max_bytes_per_request) : MODEL_MAX_REQUEST_BYTES,
  };
}

export interface Reranked {
  modelId: string;
  /** One score per document, in the documents' order. */
  scores: number[];
  totalBytes: number;
  totalTokens: number;
  inferenceMs: number;
}

/**
 * Scores documents with a reranker inside the organization's limits, and counts the call: the
 * one path of /models/rerank (explicit) and of the queries' `reranker` option (not explicit).
 * Unknown model: 404. Past the per-request cap or a budget no wait could meet: 422. Past the
 * budget for now: 429 with `retry-after`.
 */
export async function scoreWithReranker(
  database: Database,
  actor: RerankActor,
  input: { model: string; query: string; documents: readonly string[]; latency?: ModelLatency | null; explicitCall: boolean },
): Promise<Reranked> {
  const started = performance.now();
  const model = rerankModel(input.model);
  const totalBytes = rerankRequestBytes(input.query, input.documents);
  const limits = await rerankLimitsOf(database, actor.organizationId, input.latency);
  if (totalBytes > limits.maxBytesPerRequest) {
    throw new Invalid(`The request is ${totalBytes} bytes; the maximum per request is ${limits.maxBytesPerRequest} bytes.`);
  }
  if (totalBytes > limits.bytesPerMinute) {
    // Waiting would never help: refuse plainly instead of asking the client to retry forever.
    throw new Invalid(
      `The request is ${totalBytes} bytes, more than the ${limits.bytesPerMinute} bytes per minute the reranker allows; send fewer or shorter documents per request.`,
    );
  }
  await actor.rerankLimiter.admit(actor.organizationId, totalBytes, limits.bytesPerMinute);

  const inferenceStarted = performance.now();
  const scores = await model.score(input.query, input.documents);
  const inferenceMs = performance.now() - inferenceStarted;
  const queryTokens = countTokens(input.query);
  const totalTokens = input.documents.reduce((sum, document) => sum + queryTokens + countTokens(document), 0);

  await recordRerankerUsage(database, {
    organizationId: actor.organizationId,
    rerankerModel: model.id,
    explicitCall: input.explicitCall,
    requestBytes: totalBytes,
    rerankerTokens: totalTokens,
    documentsReranked: input.documents.length,
    timeTakenMs: performance.now() - started,
    rerankingTimeMs: inferenceMs,
    at: (actor.now ?? Date.now)(),
  });
  return { modelId: model.id, scores, totalBytes, totalTokens, inferenceMs };
}

/** /models/rerank: the documents' scores against the query, best first (ties by position). */
export async function rerank(database: Database, actor: RerankActor, input: RerankRequest): Promise<RerankResponse> {
  const started = performance.now();
  const { scores, totalBytes, totalTokens, inferenceMs } = await scoreWithReranker(database, actor, { ...input, explicitCall: true });
  const ranked = scores
    .map((relevance_score, index) => ({ index, relevance_score }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  return {
    results: input.top_n == null ? ranked : ranked.slice(0, input.top_n),
    total_bytes: totalBytes,
    total_tokens: totalTokens,
    // Sift has one inference path; a requested "slow" is honoured by name only.
    actual_latency_mode: input.latency ?? 'fast',
    e2e_latency: (performance.now() - started) / 1000,
    inference_latency: inferenceMs / 1000,
  };
}
