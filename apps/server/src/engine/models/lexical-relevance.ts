import { BM25_B, BM25_K1 } from '../search/rank.ts';
import { STOPWORDS, terms } from './text.ts';

/**
 * The built-in reranker: a lexical relevance model, not a neural one. It reads words, not
 * meaning. Its score is Okapi BM25 of the query against that one document (Robertson et al.,
 * TREC-3), with the published parameters k1 = 1.2 and b = 0.75, and Robertson's query-term
 * factor (k3 = 1000), so a word the query repeats counts as many times as it is repeated.
 *
 * A score depends only on the query and that one document, as the OpenAPI description promises:
 * nothing is learned from the other documents of a request or from a collection. What BM25 takes
 * from a corpus is replaced by fixed values: every content word weighs the same (function words
 * are dropped, as the search index drops them), and lengths are normalised against a fixed
 * passage length of 200 words. Without a collection's idf it ranks below BM25 on a judged collection
 * (CISI: reranking BM25's top 50 with it lowers nDCG@10),
 * so on the queries' `reranker` option, where the index's BM25 is at hand, the built-in reranker
 * keeps that instead (built-in.ts); this model answers /models/rerank.
 *
 * score = sum over distinct query terms t of qtf(t)' * tf (k1 + 1) / (tf + k1 (1 - b + b |d| / L)),
 * divided by its ceiling (every term present infinitely often): a share in 0..1, deterministic.
 */

/** Okapi BM25's term-frequency saturation and length normalisation: the search index's (rank.ts). */
const K1 = BM25_K1;
const B = BM25_B;
/** Robertson's query-term saturation; 1000 makes it practically the raw count. */
const K3 = 1000;
/** Words in a typical passage (about a paragraph): stands in for BM25's average document length. */
const PASSAGE_LENGTH = 200;

export interface PreparedQuery {
  /** Distinct content terms of the query. */
  terms: Map<string, number>;
  /** Each term's weight, by index: its query-term factor. */
  weights: number[];
  /** The score a document would reach with every term infinitely often: the 0..1 scale. */
  ceiling: number;
}

/** The content words of a text (function words dropped), normalised and stemmed. */
const contentTerms = (text: string): string[] => terms(text).filter((term) => !STOPWORDS.has(term));

export function prepareQuery(query: string): PreparedQuery {
  const counts = new Map<string, number>();
  for (const term of contentTerms(query)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const index = new Map<string, number>();
  const weights: number[] = [];
  for (const [term, qtf] of counts) {
    index.set(term, weights.length);
    weights.push(((K3 + 1) * qtf) / (K3 + qtf));
  }
  return { terms: index, weights, ceiling: weights.reduce((sum, weight) => sum + weight * (K1 + 1), 0) };
}

/** The relevance of one document to a prepared query, in 0..1. */
export function scoreDocument(query: PreparedQuery, document: string): number {
  if (query.weights.length === 0) return 0;
  const frequency = new Float64Array(query.weights.length);
  // The length counts every word, function words too, like the passage length it is set against.
  const words = terms(document);
  for (const term of words) {
    const i = query.terms.get(term);
    if (i !== undefined) frequency[i]! += 1;
  }
  const saturation = K1 * (1 - B + (B * words.length) / PASSAGE_LENGTH);
  let score = 0;
  query.weights.forEach((weight, i) => {
    const tf = frequency[i]!;
    if (tf > 0) score += (weight * tf * (K1 + 1)) / (tf + saturation);
  });
  return Math.min(1, score / query.ceiling);
}

/** Scores every document against one query; each score is computed from that document alone. */
export function lexicalRelevance(query: string, documents: readonly string[]): number[] {
  const prepared = prepareQuery(query);
  return documents.map((document) => scoreDocument(prepared, document));
}
