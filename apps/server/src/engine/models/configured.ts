import type { ModelProviderConfig, ModelsConfig } from '../../config.ts';
import { type LocalModelKind, missingModelFiles } from './local/local-model.ts';
import { type LocalModelPool, localModelPool } from './local/pool.ts';
import type { VectorEmbedder } from '../search/vectors.ts';
import type { EmbedModel, RerankModel } from './model.ts';
import type { CallOptions } from './providers/http.ts';
import { cohereReranker, ollamaEmbedder, openAiEmbedder, teiEmbedder, teiReranker, zeroEntropyEmbedder, zeroEntropyReranker } from './providers/remote.ts';

/**
 * The models the operator configured (config.ts, SIFT_EMBEDDING_* and SIFT_RERANK_*), each built
 * once and served under every id a client may send (the registry wraps them per id). `callOptions`
 * overrides the time limit and retries of remote calls (tests).
 */
export interface ConfiguredModels {
  /** Serves the embedding ids, or null for the built-in stand-in. */
  embedder: ((id: string) => EmbedModel) | null;
  /** Serves the reranker ids, or null for the built-in reranker. */
  reranker: ((id: string) => RerankModel) | null;
  /** Stops what the models run (local models' threads). */
  close(): Promise<void>;
}

export function configuredModels(config: ModelsConfig, callOptions: CallOptions = {}): ConfiguredModels {
  const pools: LocalModelPool[] = [];
  const local = (dir: string, kind: LocalModelKind) => {
    const missing = missingModelFiles(dir);
    if (missing.length > 0) throw new Error(`The local model directory ${dir} lacks ${missing.join(', ')} (docs/models.md says what it holds).`);
    const pool = localModelPool(dir, kind);
    pools.push(pool);
    return pool;
  };
  return {
    embedder: config.embedding ? embedderOf(config.embedding, callOptions, (dir) => local(dir, 'embedding')) : null,
    reranker: config.rerank ? rerankerOf(config.rerank, callOptions, (dir) => local(dir, 'cross-encoder')) : null,
    close: async () => {
      await Promise.all(pools.map((pool) => pool.close()));
    },
  };
}

/**
 * The embedder an engine indexes and searches with (search/vectors.ts): the configured embedding
 * model, named by its provider and model (what a collection's vectors record); null without one.
 */
export function indexingEmbedder(config: ModelsConfig, model: EmbedModel | null): VectorEmbedder | null {
  if (!config.embedding || !model) return null;
  return { name: `${config.embedding.provider}:${config.embedding.model ?? model.id}`, model };
}

function remote(config: ModelProviderConfig, callOptions: CallOptions) {
  return { url: config.url!, model: config.model, apiKey: config.apiKey, ...callOptions };
}

function embedderOf(config: NonNullable<ModelsConfig['embedding']>, callOptions: CallOptions, local: (dir: string) => LocalModelPool): (id: string) => EmbedModel {
  const options = remote(config, callOptions);
  switch (config.provider) {
    case 'zeroentropy':
      return (id) => zeroEntropyEmbedder(id, options);
    case 'openai':
      return (id) => openAiEmbedder(id, options);
    case 'tei':
      return (id) => teiEmbedder(id, options);
    case 'ollama':
      return (id) => ollamaEmbedder(id, options);
    case 'local': {
      const pool = local(config.model!);
      return (id) => pool.embedder(id);
    }
  }
}

function rerankerOf(config: NonNullable<ModelsConfig['rerank']>, callOptions: CallOptions, local: (dir: string) => LocalModelPool): (id: string) => RerankModel {
  const options = remote(config, callOptions);
  switch (config.provider) {
    case 'zeroentropy':
      return (id) => zeroEntropyReranker(id, options);
    case 'cohere':
      return (id) => cohereReranker(id, options);
    case 'tei':
      return (id) => teiReranker(id, options);
    case 'local': {
      const pool = local(config.model!);
      return (id) => pool.reranker(id);
    }
  }
}
