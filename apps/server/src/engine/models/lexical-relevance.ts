import { analyze, queryTermCounts } from '../search/analyzer.ts';
import { BM25_K1, bm25ListIdf, bm25TermWeight } from '../search/rank.ts';

/**
 * The built-in reranker: a lexical relevance model, not a neural one. It reads words, not
 * meaning. Its score is Okapi BM25 of the query over the request's documents taken as the
 * corpus: their count, how many of them hold each query term, their average length. Terms,
 * parameters and the term weight are the search index's (analyzer.ts, rank.ts); only the idf
 * differs (bm25ListIdf), because a candidate list is chosen for its query terms.
 *
 * So a score depends on the other documents of the request, as BM25's does on its collection: the
 * more of the collection a request holds, the closer its order comes to the index's BM25. Scores
 * from separate requests are not comparable; rerank a candidate list in one request.
 *
 * A score is the weight's share of its ceiling (every query term present infinitely often): 0..1.
 */
export function lexicalRelevance(query: string, documents: readonly string[]): number[] {
  const queryTerms = queryTermCounts(query);
  const termIndex = new Map(queryTerms.map(({ term }, i) => [term, i]));
  const counted = documents.map((document) => termFrequencies(document, termIndex));
  const idf = queryTerms.map((_, i) => bm25ListIdf(documents.length, counted.filter(({ frequency }) => frequency[i]! > 0).length));
  const averageLength = Math.max(1, counted.reduce((sum, { length }) => sum + length, 0) / Math.max(1, documents.length));
  const ceiling = queryTerms.reduce((sum, { count }, i) => sum + count * idf[i]! * (BM25_K1 + 1), 0);
  return counted.map(({ frequency, length }) => {
    if (ceiling === 0) return 0;
    let weight = 0;
    queryTerms.forEach(({ count }, i) => {
      const tf = frequency[i]!;
      if (tf > 0) weight += count * idf[i]! * bm25TermWeight(tf, length, averageLength);
    });
    return Math.min(1, weight / ceiling);
  });
}

/** How often a document holds each query term (by the term's index), and its length in terms. */
function termFrequencies(document: string, termIndex: ReadonlyMap<string, number>): { frequency: Float64Array; length: number } {
  const frequency = new Float64Array(termIndex.size);
  const terms = analyze(document);
  for (const term of terms) {
    const i = termIndex.get(term);
    if (i !== undefined) frequency[i]! += 1;
  }
  return { frequency, length: terms.length };
}
