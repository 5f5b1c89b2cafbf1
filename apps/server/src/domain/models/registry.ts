import { EMBED_MODEL_IDS, RERANK_MODEL_IDS } from '@sift/contracts';
import { NotFound } from '../errors.ts';
import { hashedNgramEmbedder, lexicalReranker } from '../../engine/models/built-in.ts';
import type { EmbedModel, RerankModel } from '../../engine/models/model.ts';

/**
 * The registry that maps the model ids clients send to a model (model.ts says what one is).
 *
 * The built-in models (lexical-relevance.ts, hashed-ngram-embedding.ts) are registered under the
 * ids of the OpenAPI description so that SDK programs run unchanged. The designed extension is a
 * real model loaded from a local directory (e.g. a cross-encoder exported to ONNX): implement
 * the interface and call `registerRerankModel` / `registerEmbedModel` at start-up under the id
 * it should serve. No such loader ships today.
 */

const rerankModels = new Map<string, RerankModel>(RERANK_MODEL_IDS.map((id) => [id, lexicalReranker(id)]));
const embedModels = new Map<string, EmbedModel>(EMBED_MODEL_IDS.map((id) => [id, hashedNgramEmbedder(id)]));

export function registerRerankModel(model: RerankModel): void {
  rerankModels.set(model.id, model);
}
export function registerEmbedModel(model: EmbedModel): void {
  embedModels.set(model.id, model);
}

/** The reranker serving `id`, or 404 naming the ids that exist. */
export function rerankModel(id: string): RerankModel {
  const model = rerankModels.get(id);
  if (!model) throw new NotFound(unknownModel(id, rerankModels));
  return model;
}

/** The embedding model serving `id`, or 404 naming the ids that exist. */
export function embedModel(id: string): EmbedModel {
  const model = embedModels.get(id);
  if (!model) throw new NotFound(unknownModel(id, embedModels));
  return model;
}

const unknownModel = (id: string, models: Map<string, unknown>) =>
  `Model '${id}' not found. Options are: ${JSON.stringify([...models.keys()])}`;
