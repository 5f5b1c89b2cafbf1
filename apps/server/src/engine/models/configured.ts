import type { ModelProviderConfig, ModelsConfig } from '../../config.ts';
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
  return {
    embedder: config.embedding ? embedderOf(config.embedding, callOptions) : null,
    reranker: config.rerank ? rerankerOf(config.rerank, callOptions) : null,
    close: async () => {},
  };
}

function remote(config: ModelProviderConfig, callOptions: CallOptions) {
  return { url: config.url!, model: config.model, apiKey: config.apiKey, ...callOptions };
}

function embedderOf(config: NonNullable<ModelsConfig['embedding']>, callOptions: CallOptions): (id: string) => EmbedModel {
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
    case 'local':
      throw new Error('SIFT_EMBEDDING_PROVIDER=local is not available yet');
  }
}

function rerankerOf(config: NonNullable<ModelsConfig['rerank']>, callOptions: CallOptions): (id: string) => RerankModel {
  const options = remote(config, callOptions);
  switch (config.provider) {
    case 'zeroentropy':
      return (id) => zeroEntropyReranker(id, options);
    case 'cohere':
      return (id) => cohereReranker(id, options);
    case 'tei':
      return (id) => teiReranker(id, options);
    case 'local':
      throw new Error('SIFT_RERANK_PROVIDER=local is not available yet');
  }
}
