/**
 * Ranking-quality measures with trec_eval's conventions (binary judgements): `ndcg_cut.10` and
 * `map`. A query's ranking is a list of document ids, best first; `relevant` are its judged
 * relevant ids. Queries without a relevant document are left out by the caller, as trec_eval
 * leaves out queries absent from the qrels.
 */

/** nDCG@k: gain 1 per relevant document, discount log2(rank + 1), normalised by the ideal ranking. */
export function ndcgAt(k: number, ranking: readonly string[], relevant: ReadonlySet<string>): number {
  let dcg = 0;
  ranking.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Average precision: precision at each relevant document retrieved, summed, over all relevant ones. */
export function averagePrecision(ranking: readonly string[], relevant: ReadonlySet<string>): number {
  if (relevant.size === 0) return 0;
  let found = 0;
  let sum = 0;
  ranking.forEach((id, i) => {
    if (relevant.has(id)) sum += ++found / (i + 1);
  });
  return sum / relevant.size;
}

export const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
