import { type RawBuilder, sql } from 'kysely';
import { queryTermCounts } from './analyzer.ts';
import type { SearchRequest, WeightedTerm } from './types.ts';

/**
 * BM25, the one ranking of both backends, over statistics the engine keeps per collection and
 * granularity (rows, total length, row lengths; document frequencies counted from the postings):
 * a row's weight is the sum over the query's terms of
 *   weight x idf x tf (k1 + 1) / (tf + k1 (1 - b + b length / average length)),
 * idf = ln((N - df + 0.5) / (df + 0.5)), at least BM25_MIN_IDF. The same arithmetic in
 * JavaScript (bm25Idf, bm25TermWeight) and in SQL for both dialects (bm25Sql).
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/**
 * The idf of a term in half the rows or more, where ln((N - n + 0.5) / (n + 0.5)) is 0 or
 * below: such a term still adds a little, so a row holding it ranks above one without it.
 */
export const BM25_MIN_IDF = 1e-6;

/** The idf of a term found in `documentFrequency` of `rows` rows. */
export function bm25Idf(rows: number, documentFrequency: number): number {
  const idf = Math.log((rows - documentFrequency + 0.5) / (documentFrequency + 0.5));
  return idf <= 0 ? BM25_MIN_IDF : idf;
}

/**
 * The idf of a term among a request's documents rather than a collection's rows: ln(1 + (N - df +
 * 0.5) / (df + 0.5)), Lucene's form. It stays positive for a term most documents hold, and a
 * reranker's documents are chosen for their query terms, so most of them hold the important ones.
 */
export function bm25ListIdf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** One term's part of a row's weight, before the idf and the query's weight multiply it. */
export const bm25TermWeight = (tf: number, length: number, averageLength: number): number =>
  (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength));

/** A float8 literal on both dialects (a REAL in SQLite). */
const float = (value: number): RawBuilder<number> => sql`cast(${sql.lit(value)} as double precision)`;

/**
 * The same in SQL, given SQL expressions, arranged so that what is constant over a term's postings
 * is computed once per term: its factor, weight x idf x (k1 + 1); then each posting's part is
 *   factor x tf / (tf + k1 (1 - b) + (k1 b / average length) x length),
 * the formula above with its constants gathered. The idf is taken of a ratio that is a column
 * (idfRatio): PostgreSQL would otherwise compute the ratio twice, for the test and the value.
 */
export const bm25Sql = {
  idfRatio: (rows: RawBuilder<unknown>, documentFrequency: RawBuilder<unknown>): RawBuilder<number> =>
    sql`(${rows} - ${documentFrequency} + 0.5) / (${documentFrequency} + 0.5)`,
  idf: (ratio: RawBuilder<unknown>): RawBuilder<number> => sql`case when ${ratio} <= 1 then ${float(BM25_MIN_IDF)} else ln(${ratio}) end`,
  /** A query term's factor: its weight, its idf (an SQL expression) and k1 + 1 multiplied. */
  termFactor: (weight: RawBuilder<unknown>, idf: RawBuilder<unknown>): RawBuilder<number> => sql`${weight} * ${idf} * (${float(BM25_K1)} + 1.0)`,
  /**
   * k1 b / average length, as k1 b rows / tokens: what a posting's length is multiplied by in its
   * part's denominator (null for a collection without tokens, which has no postings either).
   */
  perLength: (rows: RawBuilder<unknown>, tokens: RawBuilder<unknown>): RawBuilder<number> =>
    sql`${float(BM25_K1)} * ${float(BM25_B)} * ${rows} / nullif(${tokens}, 0)`,
  /** A posting's part of its row's weight, given its term's factor and perLength. */
  part: (factor: RawBuilder<unknown>, tf: RawBuilder<unknown>, length: RawBuilder<unknown>, perLength: RawBuilder<unknown>): RawBuilder<number> =>
    sql`${factor} * ${tf} / (${tf} + ${float(BM25_K1 * (1 - BM25_B))} + ${perLength} * ${length})`,
};

/** Monotonic map of a BM25 weight (0 and up) onto 0..1, the same for every query and backend. */
export const bm25Score = (weight: number): number => (weight > 0 ? weight / (weight + 10) : 0);

/** The BM25 weight a score stands for: the inverse of bm25Score. */
export const bm25Weight = (score: number): number => (score > 0 ? (10 * score) / (1 - Math.min(score, 1 - 1e-12)) : 0);

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
 * rows only those `where ${canBeAmongK}`: joining every row costs a search noticeably more.
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
    // Not `{ ...rest, score }`: spreading the rest object again (V8) would be most of this function's cost.
    return Object.assign(rest, { score: bm25Score(weight) });
  });
}

/** Rows' places (path, then page or start index) compared as JavaScript strings and numbers. */
export function comparePlaces(a: (string | number)[], b: (string | number)[]): number {
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
