import type { EmbedInputType } from '@sift/contracts';

/** What a model is to the services; the registry (registry.ts) maps ids to implementations. */

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
