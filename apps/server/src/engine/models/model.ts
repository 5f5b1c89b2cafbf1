import type { EmbedInputType } from '@sift/contracts';

/** What a model is to the services; the registry (registry.ts) maps ids to implementations. */

/** What a reranker may know of the documents besides their text. */
export interface RerankContext {
  /**
   * The documents' scores from the collection's index (BM25 with the collection's statistics), in
   * the documents' order: set on the queries' `reranker` option, absent on /models/rerank.
   */
  firstStageScores?: readonly number[];
}

export interface RerankModel {
  readonly id: string;
  /** One score per document, in the documents' order, each in 0..1. */
  score(query: string, documents: readonly string[], context?: RerankContext): Promise<number[]>;
}

export interface EmbedModel {
  readonly id: string;
  /**
   * The `dimensions` a client may ask for, largest (the default) first; null for a configured model,
   * whose provider decides (a requested size is passed on; without one, the model's own size).
   */
  readonly dimensions: readonly number[] | null;
  /**
   * One L2-normalised vector per text, in order: what an indexer calls, in batches of its choice
   * (the model splits them further as its provider needs). Without `dimensions`, the model's default.
   */
  embed(texts: readonly string[], options: { inputType: EmbedInputType; dimensions?: number }): Promise<Float32Array[]>;
}
