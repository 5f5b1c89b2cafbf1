/**
 * RM3 pseudo-relevance feedback (Lavrenko and Croft's relevance model, interpolated with the
 * query as in Abdul-Jaleel et al., UMass at TREC 2004; the form Anserini ships): the best
 * documents of a first pass are taken as relevant, the words they share become an expansion of
 * the query, and a second pass ranks with the weighted, expanded query. This module is the
 * arithmetic only; the search service runs the passes, and the index ranks a weighted query.
 *
 * The parameters are fixed: Anserini's feedback documents and original-query weight; 20
 * expansion terms, between its 10 and the 30 often published, which also bounds the second pass's cost.
 */

/** Documents of the first pass taken as relevant. */
export const RM3_FEEDBACK_DOCUMENTS = 10;
/** Expansion terms kept from the relevance model: also caps the second pass's cost. */
export const RM3_EXPANSION_TERMS = 20;
/** The original query's share of the final weights; the relevance model has the rest. */
export const RM3_ORIGINAL_QUERY_WEIGHT = 0.5;
/** Terms in more than this share of the collection's documents say nothing about a topic (Anserini's filter). */
export const RM3_MAX_DOCUMENT_SHARE = 0.1;

export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface FeedbackDocument {
  /** The document's analyzed terms, repeats kept. */
  terms: readonly string[];
  /** Its first-pass score: P(D|Q) up to a constant. */
  score: number;
}

/**
 * The relevance model P(t|R) = Σ_D P(t|D) P(D|Q) over the feedback documents, with P(t|D) the
 * document's term frequencies over its length and P(D|Q) its first-pass score over theirs; terms
 * best first, ties broken by term so that the same input always gives the same model.
 */
export function relevanceModel(feedback: readonly FeedbackDocument[]): [string, number][] {
  const model = new Map<string, number>();
  const totalScore = feedback.reduce((sum, document) => sum + Math.max(0, document.score), 0);
  for (const document of feedback) {
    const weight = totalScore > 0 ? Math.max(0, document.score) / totalScore : 1 / feedback.length;
    for (const [term, p] of l1(counts(document.terms))) model.set(term, (model.get(term) ?? 0) + p * weight);
  }
  return byWeight(model);
}

/**
 * The expanded query: weight(t) = λ P(t|Q) + (1 - λ) P(t|R), with P(t|Q) the query's term
 * frequencies and P(t|R) the relevance model cut to its best `RM3_EXPANSION_TERMS` terms
 * (leaving out those `tooCommon` says occur in more than `RM3_MAX_DOCUMENT_SHARE` of the
 * collection) and normalised. Best first, ties broken by term.
 */
export function rm3Query(queryTerms: readonly string[], model: readonly [string, number][], tooCommon: (term: string) => boolean = () => false): WeightedTerm[] {
  const query = l1(counts(queryTerms));
  const expansion = l1(new Map(model.filter(([term]) => !tooCommon(term)).slice(0, RM3_EXPANSION_TERMS)));
  const combined = new Map<string, number>();
  for (const [term, p] of query) combined.set(term, RM3_ORIGINAL_QUERY_WEIGHT * p);
  for (const [term, p] of expansion) combined.set(term, (combined.get(term) ?? 0) + (1 - RM3_ORIGINAL_QUERY_WEIGHT) * p);
  return byWeight(combined).map(([term, weight]) => ({ term, weight }));
}

/** The query as weighted terms, each weighing its number of occurrences: the first pass of RM3. */
export function queryWeights(queryTerms: readonly string[]): WeightedTerm[] {
  return byWeight(counts(queryTerms)).map(([term, weight]) => ({ term, weight }));
}

function counts(terms: readonly string[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const term of terms) result.set(term, (result.get(term) ?? 0) + 1);
  return result;
}

function l1(vector: Map<string, number>): Map<string, number> {
  let total = 0;
  for (const value of vector.values()) total += value;
  if (total <= 0) return new Map();
  return new Map([...vector].map(([term, value]) => [term, value / total]));
}

const byWeight = (vector: Map<string, number>) => [...vector].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
