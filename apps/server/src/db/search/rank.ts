import { bm25Score, queryTermCounts } from './analyzer.ts';
import type { SearchRequest, WeightedTerm } from './types.ts';

/**
 * The last step of every search, the same on both backends: the k best of a few more rows than
 * k (RANK_SLACK), by BM25 weight rounded to 12 significant digits (SQLite and PostgreSQL add the same
 * terms in different orders, so their weights may differ in the last bits), ties broken by the
 * row's place in its collection (path, then page or start index). The score is the rounded
 * weight mapped onto 0..1, so equal ranks show equal scores.
 */
export const RANK_SLACK = 32;

export function rankHits<Hit extends { weight: number }>(hits: Hit[], k: number, place: (hit: Hit) => (string | number)[]): (Omit<Hit, 'weight'> & { score: number })[] {
  const keyed = hits.map((hit) => ({ hit, weight: Number(hit.weight.toPrecision(12)), place: place(hit) }));
  keyed.sort((a, b) => b.weight - a.weight || comparePlaces(a.place, b.place));
  return keyed.slice(0, k).map(({ hit, weight }) => {
    const { weight: _weight, ...rest } = hit;
    return { ...rest, score: bm25Score(weight) };
  });
}

function comparePlaces(a: (string | number)[], b: (string | number)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    // As JavaScript strings: the same order whichever backend found the rows.
    return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * What a request ranks by: its weighted terms, or else its query's distinct terms, each weighing
 * as often as the query says it (BM25's query term frequency).
 */
export function rankingTerms(request: SearchRequest): WeightedTerm[] {
  return request.terms ? request.terms.filter((term) => term.weight > 0) : queryTermCounts(request.query).map(({ term, count }) => ({ term, weight: count }));
}

/** Rows a term must be found in to be in more than `share` of `rows` (at least one). */
export const commonBound = (rows: number, share: number): number => Math.floor(share * rows) + 1;
