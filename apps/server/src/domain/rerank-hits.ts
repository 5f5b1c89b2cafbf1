import type { Database } from '../db/schema.ts';
import { ModelFailed, ModelUnavailable } from './models/provider-failure.ts';
import { type RerankActor, scoreWithReranker } from './models/rerank.ts';
import { rerankModel } from './models/registry.ts';

/**
 * The queries' `reranker` option (top-documents, top-pages, top-snippets): the candidates the
 * index retrieved are scored by that model against the query, and come back in the model's
 * order with the model's scores. It goes through the reranker's one path
 * (models/rerank.ts scoreWithReranker), so its byte budget applies and its usage is counted, as
 * a call Sift made on the client's behalf (`explicit_call` false). The model is also given the
 * index's scores of the candidates: the built-in reranker keeps them, so without a configured model
 * the option never ranks below the index's BM25. A configured model's provider that is down or
 * failing does not fail the search: the hits come back in the index's order (the lexical answer).
 */

/** 404 for an unknown model id, the same refusal /models/rerank gives, before any work is done. */
export function requireReranker(modelId: string | null | undefined): void {
  if (modelId != null) rerankModel(modelId);
}

/** The text a document is reranked on: its opening, since a whole book would exceed any budget. */
export const RERANK_DOCUMENT_CHARS = 8000;

export async function rerankHits<Hit extends { score: number }>(
  database: Database,
  actor: RerankActor,
  input: { reranker: string | null | undefined; query: string | null; hits: Hit[]; textOf: (hit: Hit) => string },
): Promise<Hit[]> {
  if (input.reranker == null || input.query === null || input.hits.length === 0) return input.hits;
  let scores: number[];
  try {
    ({ scores } = await scoreWithReranker(database, actor, {
      model: input.reranker,
      query: input.query,
      documents: input.hits.map(input.textOf),
      firstStageScores: input.hits.map((hit) => hit.score),
      explicitCall: false,
    }));
  } catch (error) {
    if (error instanceof ModelUnavailable || error instanceof ModelFailed) return input.hits;
    throw error;
  }
  return input.hits
    .map((hit, position) => ({ hit: { ...hit, score: scores[position]! }, position }))
    .sort((a, b) => b.hit.score - a.hit.score || a.position - b.position)
    .map(({ hit }) => hit);
}
