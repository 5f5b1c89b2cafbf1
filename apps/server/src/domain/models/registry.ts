import { EMBED_MODEL_IDS, RERANK_MODEL_IDS } from '@sift/contracts';
import type { ModelsConfig } from '../../config.ts';
import { NotFound } from '../errors.ts';
import { hashedNgramEmbedder, lexicalReranker } from '../../engine/models/built-in.ts';
import { configuredModels } from '../../engine/models/configured.ts';
import type { EmbedModel, RerankModel } from '../../engine/models/model.ts';
import type { CallOptions } from '../../engine/models/providers/http.ts';

/**
 * The registry that maps the model ids clients send to a model (model.ts says what one is).
 *
 * Every id of the OpenAPI description is served, so SDK programs run unchanged: by the model the
 * operator configured (SIFT_EMBEDDING_*, SIFT_RERANK_*; engine/models/configured.ts) or, without
 * one, by the built-in stand-ins (lexical-relevance.ts, hashed-ngram-embedding.ts). Usage is
 * recorded under the id the client sent.
 */
export interface ModelRegistry {
  /** The reranker serving `id`, or 404 naming the ids that exist. */
  rerankModel(id: string): RerankModel;
  /** The embedding model serving `id`, or 404 naming the ids that exist. */
  embedModel(id: string): EmbedModel;
  /**
   * The operator's embedding model, for an indexer: `embed(texts, { inputType: 'document' })`
   * gives one unit vector per text. Null without one (collections stay lexical).
   */
  readonly embedder: EmbedModel | null;
  /** True when a configured reranker (not the built-in one) serves the reranker ids. */
  readonly configuredReranker: boolean;
  close(): Promise<void>;
}

function registry(rerankers: Map<string, RerankModel>, embedders: Map<string, EmbedModel>, extra: Pick<ModelRegistry, 'embedder' | 'configuredReranker' | 'close'>): ModelRegistry {
  return {
    rerankModel(id) {
      const model = rerankers.get(id);
      if (!model) throw new NotFound(unknownModel(id, rerankers));
      return model;
    },
    embedModel(id) {
      const model = embedders.get(id);
      if (!model) throw new NotFound(unknownModel(id, embedders));
      return model;
    },
    ...extra,
  };
}

/** The built-in stand-ins under every id: what a server without SIFT_*_PROVIDER serves. */
export const builtInModels: ModelRegistry = registry(
  new Map(RERANK_MODEL_IDS.map((id) => [id, lexicalReranker(id)])),
  new Map(EMBED_MODEL_IDS.map((id) => [id, hashedNgramEmbedder(id)])),
  { embedder: null, configuredReranker: false, close: async () => {} },
);

const registries = new WeakMap<ModelsConfig, ModelRegistry>();

/**
 * The registry of a configuration, built once per configuration object: the server's routes and
 * its indexer given the same `config.models` share one set of models (a local model loads once).
 */
export function modelRegistry(config: ModelsConfig | undefined, callOptions?: CallOptions): ModelRegistry {
  if (!config || (!config.embedding && !config.rerank)) return builtInModels;
  let models = registries.get(config);
  if (!models) {
    const configured = configuredModels(config, callOptions);
    const rerank = configured.reranker;
    const embed = configured.embedder;
    models = registry(
      new Map(RERANK_MODEL_IDS.map((id) => [id, rerank ? rerank(id) : lexicalReranker(id)])),
      new Map(EMBED_MODEL_IDS.map((id) => [id, embed ? embed(id) : hashedNgramEmbedder(id)])),
      { embedder: embed ? embed(EMBED_MODEL_IDS[0]) : null, configuredReranker: rerank !== null, close: configured.close },
    );
    registries.set(config, models);
  }
  return models;
}

/** The built-in reranker serving `id`, or 404: every registry serves the same ids. */
export const rerankModel = (id: string): RerankModel => builtInModels.rerankModel(id);
/** The built-in embedding model serving `id`, or 404. */
export const embedModel = (id: string): EmbedModel => builtInModels.embedModel(id);

const unknownModel = (id: string, models: Map<string, unknown>) =>
  `Model '${id}' not found. Options are: ${JSON.stringify([...models.keys()])}`;
