import { type RawBuilder, sql } from 'kysely';
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

/**
 * Relative distance from the k-th weight within which a row may still round to it (12 significant
 * digits, rankHits): a search joins to their rows and content only the rows ranked at least this
 * close to the k-th, those that can be among the k best, instead of all k + RANK_SLACK.
 */
const TIE_TOLERANCE = 1e-9;

/**
 * That rule in SQL, the same on both backends: `t`, the best rows of a search (a `weight` column,
 * best first, k + RANK_SLACK of them) and `kth`, the k-th weight, for a query that joins to their
 * rows only those `where ${canBeAmongK}` (fine snippets at 10 MB on SQLite: 182 us a query with
 * every row joined, 133 with only these).
 */
export const withBestRows = (kthOffset: number, best: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`with t as materialized (${best}), kth as (select weight from t order by weight desc limit 1 offset ${kthOffset})`;
/** The k-th row's offset among the best rows, for withBestRows. */
export const kthOffset = (k: number): number => Math.max(0, k - 1);
export const canBeAmongK = sql`t.weight >= coalesce((select weight - abs(weight) * cast(${TIE_TOLERANCE} as float8) from kth), t.weight)`;

export function rankHits<Hit extends { weight: number }>(hits: Hit[], k: number, place: (hit: Hit) => (string | number)[]): (Omit<Hit, 'weight'> & { score: number })[] {
  const keyed = hits.map((hit) => ({ hit, weight: Number(hit.weight.toPrecision(12)), place: place(hit) }));
  keyed.sort((a, b) => b.weight - a.weight || comparePlaces(a.place, b.place));
  return keyed.slice(0, k).map(({ hit, weight }) => {
    const { weight: _weight, ...rest } = hit;
    // Not `{ ...rest, score }`: spreading the rest object again cost 1 us a hit (V8), most of this function.
    return Object.assign(rest, { score: bm25Score(weight) });
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
