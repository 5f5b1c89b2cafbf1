import { ZEMBED_1_DIMENSIONS } from '@sift/contracts';
import { hashedNgramEmbeddings } from './hashed-ngram-embedding.ts';
import { lexicalRelevance } from './lexical-relevance.ts';
import type { EmbedModel, RerankModel } from './model.ts';

/**
 * The models Sift ships: the lexical relevance model serves every reranker id of the OpenAPI
 * description and the hashed n-gram embedding serves `zembed-1`. docs/models.md says what they are;
 * these ids do not mean the vendor's neural models run here.
 */
export function lexicalReranker(id: string): RerankModel {
  return {
    id,
    // Given the index's BM25 scores it keeps them: BM25 with the collection's document frequencies
    // ranks better than the lexical model can without them (see lexical-relevance.ts).
    score: async (query, documents, context) => (context?.firstStageScores ? [...context.firstStageScores] : lexicalRelevance(query, documents)),
  };
}

export function hashedNgramEmbedder(id: string): EmbedModel {
  const dimensions = ZEMBED_1_DIMENSIONS;
  return {
    id,
    dimensions,
    // Symmetric: queries and documents are embedded alike, so `inputType` changes nothing.
    embed: async (texts, options) => hashedNgramEmbeddings(texts, options.dimensions ?? dimensions[0]!),
  };
}
