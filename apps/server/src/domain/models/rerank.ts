import type { RerankRequest, RerankResponse } from '@sift/contracts';
import type { Database } from '../../db/schema.ts';
import { countTokens } from '../../ingest/tokens.ts';
import type { ApiKeyActor } from '../api-keys.ts';
import { Invalid } from '../errors.ts';
import { MODEL_MAX_REQUEST_BYTES, MODEL_REQUEST_BYTE_OVERHEAD, RATE_LIMIT_WINDOW_MS, RERANK_BYTES_PER_MINUTE } from '../limits.ts';
import type { ByteBudget, ByteRateLimiter } from './rate-limit.ts';
import { rerankModel } from './registry.ts';
import { recordRerankerUsage } from './reranker-usage.ts';
import { utf8Bytes } from './text.ts';

export interface RerankRuntime {
  /** The organization's byte budget (spec §9), shared by every server of the installation. */
  limiter: ByteRateLimiter;
  /** Milliseconds since the epoch; picks the usage minute. */
  now?: () => number;
}

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
 * Scores the documents against the query with the requested model, best first. Past the
 * organization's byte budget it answers 429 with `retry-after`; every served call adds a
 * reranker usage event (explicit call).
 */
export async function rerank(
  database: Database,
  actor: ApiKeyActor,
  input: RerankRequest,
  runtime: RerankRuntime,
): Promise<RerankResponse> {
  const started = performance.now();
  const model = rerankModel(input.model);
  const totalBytes = rerankRequestBytes(input.query, input.documents);
  if (totalBytes > MODEL_MAX_REQUEST_BYTES) {
    throw new Invalid(`The request is ${totalBytes} bytes; the maximum per request is ${MODEL_MAX_REQUEST_BYTES} bytes.`);
  }
  if (totalBytes > runtime.limiter.budgetBytes) {
    // Waiting would never help: refuse plainly instead of asking the client to retry forever.
    throw new Invalid(
      `The request is ${totalBytes} bytes, more than the ${runtime.limiter.budgetBytes} bytes per minute the reranker allows; send fewer or shorter documents per request.`,
    );
  }
  await runtime.limiter.admit(actor.organizationId, totalBytes);

  const inferenceStarted = performance.now();
  const scores = await model.score(input.query, input.documents);
  const inferenceMs = performance.now() - inferenceStarted;

  const ranked = scores
    .map((relevance_score, index) => ({ index, relevance_score }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const results = input.top_n == null ? ranked : ranked.slice(0, input.top_n);
  const queryTokens = countTokens(input.query);
  const totalTokens = input.documents.reduce((sum, document) => sum + queryTokens + countTokens(document), 0);

  const e2eMs = performance.now() - started;
  await recordRerankerUsage(database, {
    organizationId: actor.organizationId,
    rerankerModel: model.id,
    explicitCall: true,
    requestBytes: totalBytes,
    rerankerTokens: totalTokens,
    documentsReranked: input.documents.length,
    timeTakenMs: e2eMs,
    rerankingTimeMs: inferenceMs,
    at: (runtime.now ?? Date.now)(),
  });
  return {
    results,
    total_bytes: totalBytes,
    total_tokens: totalTokens,
    // Sift has one inference path; a requested "slow" is honoured by name only.
    actual_latency_mode: input.latency ?? 'fast',
    e2e_latency: e2eMs / 1000,
    inference_latency: inferenceMs / 1000,
  };
}
