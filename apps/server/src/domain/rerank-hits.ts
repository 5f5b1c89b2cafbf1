import type { Database } from '../db/schema.ts';
import { countTokens } from '../ingest/tokens.ts';
import { rerankModel } from './models/registry.ts';
import { rerankRequestBytes } from './models/rerank.ts';
import { recordRerankerUsage } from './models/reranker-usage.ts';

/**
 * The `reranker` option of the queries: the retrieved hits scored again by that model (404 for
 * an unknown id, before any work), best first, each hit's score the model's. Ties keep the
 * retrieval order. Adds a reranker usage event marked as Sift's own call (not explicit).
 */
export async function rerankHits<Hit extends { score: number }>(
  database: Database,
  organizationId: string,
  modelId: string,
  query: string,
  hits: Hit[],
  textOf: (hits: Hit[]) => Promise<string[]>,
): Promise<Hit[]> {
  const model = rerankModel(modelId);
  if (hits.length === 0) return hits;
  const started = performance.now();
  const texts = await textOf(hits);
  const inferenceStarted = performance.now();
  const scores = await model.score(query, texts);
  const inferenceMs = performance.now() - inferenceStarted;
  const reranked = hits
    .map((hit, index) => ({ hit: { ...hit, score: scores[index]! }, index }))
    .sort((a, b) => b.hit.score - a.hit.score || a.index - b.index)
    .map(({ hit }) => hit);
  const queryTokens = countTokens(query);
  await recordRerankerUsage(database, {
    organizationId,
    rerankerModel: model.id,
    explicitCall: false,
    requestBytes: rerankRequestBytes(query, texts),
    rerankerTokens: texts.reduce((sum, text) => sum + queryTokens + countTokens(text), 0),
    documentsReranked: texts.length,
    timeTakenMs: performance.now() - started,
    rerankingTimeMs: inferenceMs,
    at: Date.now(),
  });
  return reranked;
}

/** The parsed text of each document, in the order asked. */
export async function documentTexts({ db }: Database, documentIds: string[]): Promise<string[]> {
  const rows = await db.selectFrom('documents').select(['id', 'text']).where('id', 'in', documentIds).execute();
  const byId = new Map(rows.map((row) => [row.id, row.text ?? '']));
  return documentIds.map((id) => byId.get(id) ?? '');
}
