/**
 * Words of a natural-language query, as the full-text index sees them. Common English words
 * are dropped (they match nearly every row and only slow ranking down) unless nothing else is
 * left. At most 64 distinct terms are kept.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its me my no not of on or our she so ' +
    'than that the their them then there these they this to was we were what when where which who why will with you your'
  ).split(' '),
);

export function queryTerms(query: string): string[] {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  const meaningful = words.filter((word) => !STOP_WORDS.has(word));
  return (meaningful.length > 0 ? meaningful : words).slice(0, 64);
}

/** Monotonic map of a BM25 weight (0 and up) onto 0..1, the same for every query. */
export const bm25Score = (weight: number): number => (weight > 0 ? weight / (weight + 10) : 0);
