import { stemmer } from 'stemmer';

/**
 * The one analyzer of the search index, for indexing and for queries, on both backends: text
 * becomes the terms that SQLite's FTS5 tables hold and PostgreSQL's postings count, so both rank
 * exactly the same terms. Steps: Unicode compatibility decomposition with diacritics removed
 * ("Café" and "cafe" are one term), lower case, words of Unicode letters and digits, English stop
 * words dropped, Porter stemming (the `stemmer` package). Pure functions (stems are memoized).
 */

/** NLTK's English stop-word list (179 words; apostrophes dropped, as the tokeniser splits on them). */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you youre youve youll youd your yours yourself yourselves he him his himself she shes her ' +
    'hers herself it its itself they them their theirs themselves what which who whom this that thatll these those am is are was ' +
    'were be been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under again further ' +
    'then once here there when where why how all any both each few more most other some such no nor not only own same so than too ' +
    'very s t can will just don dont should shouldve now d ll m o re ve y ain aren arent couldn couldnt didn didnt doesn doesnt ' +
    'hadn hadnt hasn hasnt haven havent isn isnt ma mightn mightnt mustn mustnt needn neednt shan shant shouldn shouldnt wasn ' +
    'wasnt weren werent won wont wouldn wouldnt'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;
/** Words longer than this are not language (hashes, base64): they are cut, keeping terms small. */
const MAX_TERM_LENGTH = 64;

/** True for a word the index leaves out. */
export const isStopWord = (word: string): boolean => STOP_WORDS.has(word);

/** The terms of a text, in order, repeats kept (their count is the term frequency). */
export function analyze(text: string): string[] {
  // Plain ASCII (most text) needs no decomposition, and its words are runs of [a-z0-9]: a
  // non-Unicode pattern finds them several times faster than the Unicode one, same words.
  const words = NON_ASCII.test(text) ? text.normalize('NFKD').replace(MARKS, '').toLowerCase().match(WORD) : text.toLowerCase().match(ASCII_WORD);
  if (!words) return [];
  const terms: string[] = [];
  for (const word of words) {
    if (STOP_WORDS.has(word)) continue;
    terms.push(stem(word.length > MAX_TERM_LENGTH ? word.slice(0, MAX_TERM_LENGTH) : word));
  }
  return terms;
}


/**
 * The same terms, a slice of about 64 KB of text at a time cut at a space (terms never span one),
 * with `between` awaited after each slice: a 60 MB document analyzed whole makes ten million word
 * strings at once (gigabytes of heap), and a thread that never yields runs no timers (lease
 * renewals, a stop request) for seconds.
 */
export async function analyzeInSlices(text: string, onTerms: (terms: string[]) => void, between: () => Promise<unknown> = nextTurn): Promise<void> {
  if (text.length <= SLICE) return onTerms(analyze(text));
  for (let start = 0; start < text.length; ) {
    const space = text.indexOf(' ', start + SLICE);
    const end = space < 0 ? text.length : space;
    onTerms(analyze(text.slice(start, end)));
    start = end;
    await between();
  }
}
const SLICE = 65_536;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A text's terms joined by spaces (what an FTS5 row holds), built slice by slice. */
export async function analyzedText(text: string): Promise<string> {
  const parts: string[] = [];
  await analyzeInSlices(text, (terms) => terms.length > 0 && parts.push(terms.join(' ')));
  return parts.join(' ');
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /[a-z0-9]+/g;

/**
 * Porter stems, remembered: a text's words repeat (Zipf), and stemming was most of what indexing
 * cost (issue #11 point 5). Bounded; a full memory starts again rather than tracking recency.
 */
const stems = new Map<string, string>();
const REMEMBERED_STEMS = 100_000;
function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (stems.size >= REMEMBERED_STEMS) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

/** A query term and how often the query says it (BM25's query term frequency). */
export interface QueryTerm {
  term: string;
  count: number;
}

/** Most distinct terms a query keeps, and most times one counts (a query is not a document). */
const MAX_QUERY_TERMS = 64;
const MAX_QUERY_TERM_COUNT = 4;

/** Distinct terms of a query, in first-seen order; at most 64. */
export function queryTerms(query: string): string[] {
  return queryTermCounts(query).map(({ term }) => term);
}

/**
 * The terms of a query, in first-seen order, each with its count (at most 4): a term the query
 * repeats weighs more (long, natural-language queries say what matters more than once).
 */
export function queryTermCounts(query: string): QueryTerm[] {
  const counts = new Map<string, number>();
  for (const term of analyze(query)) {
    if (!counts.has(term) && counts.size >= MAX_QUERY_TERMS) continue;
    counts.set(term, Math.min(MAX_QUERY_TERM_COUNT, (counts.get(term) ?? 0) + 1));
  }
  return [...counts].map(([term, count]) => ({ term, count }));
}

/** Monotonic map of a BM25 weight (0 and up) onto 0..1, the same for every query and backend. */
export const bm25Score = (weight: number): number => (weight > 0 ? weight / (weight + 10) : 0);

/** The BM25 weight a score stands for: the inverse of bm25Score. */
export const bm25Weight = (score: number): number => (score > 0 ? (10 * score) / (1 - Math.min(score, 1 - 1e-12)) : 0);

/** BM25's parameters, the same on both backends (FTS5's bm25() uses these values). */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
