import { EMBED_MODEL_IDS, type EmbedInputType, RERANK_MODEL_IDS } from '@sift/contracts';
import { NotFound } from '../errors.ts';
import { hashedNgramEmbedder, lexicalReranker } from './built-in.ts';

/**
 * What a model is to the services, and the registry that maps the ids clients send to one.
 *
 * The built-in models (lexical-relevance.ts, hashed-ngram-embedding.ts) are registered under the
 * ids of the OpenAPI description so that SDK programs run unchanged. The designed extension is a
 * real model loaded from a local directory (e.g. a cross-encoder exported to ONNX): implement
 * the interface and call `registerRerankModel` / `registerEmbedModel` at start-up under the id
 * it should serve. No such loader ships today.
 */

export interface RerankModel {
  readonly id: string;
  /**
   * One score per document, in the documents' order, each in 0..1 and depending only on the
   * query and that document (the OpenAPI description promises this to clients).
   */
  score(query: string, documents: readonly string[]): Promise<number[]>;
}

export interface EmbedModel {
  readonly id: string;
  /** The `dimensions` a client may ask for, largest (the default) first. */
  readonly dimensions: readonly number[];
  /** One L2-normalised vector of `dimensions` floats per text. */
  embed(texts: readonly string[], options: { inputType: EmbedInputType; dimensions: number }): Promise<Float32Array[]>;
}

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
