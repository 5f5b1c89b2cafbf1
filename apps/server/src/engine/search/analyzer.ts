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

/** A row's terms counted: how many in all, and each one's frequency (what both backends index). */
export interface TermCounts {
  count: number;
  frequencies: Map<string, number>;
}

export function termCounts(terms: string[], into: TermCounts = { count: 0, frequencies: new Map() }): TermCounts {
  into.count += terms.length;
  for (const term of terms) into.frequencies.set(term, (into.frequencies.get(term) ?? 0) + 1);
  return into;
}

/**
 * The same for a text analyzed in slices, with timers (lease renewals) run between: a large
 * text's words are counted slice by slice, never all held as strings at once.
 */
export async function termCountsInSlices(text: string): Promise<TermCounts> {
  const counts: TermCounts = { count: 0, frequencies: new Map() };
  await analyzeInSlices(text, (slice) => termCounts(slice, counts));
  return counts;
}

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_WORD = /[a-z0-9]+/g;

/**
 * The terms of slices of one text (its pages and snippets), each exactly `analyze(content)`, with
 * the text's words found and stemmed once rather than once per granularity. `content` must be
 * `text.slice(start, start + content.length)`; a slice that is not (stored rows of an older
 * version), a slice of a text that is not plain ASCII, and a slice cut inside a word are analyzed
 * on their own, so the result never differs from analyzing each slice.
 */
/**
 * Texts up to this size are analyzed once for every granularity (textTerms); larger ones slice
 * by slice, yielding between slices (analyzeInSlices): their word positions would take gigabytes.
 */
export const ANALYZED_ONCE_CHARS = 1 << 20;

export interface TextTerms {
  /** Every term of the whole text, in order: `analyze(text)`. */
  all(): string[];
  /** `analyze(content)` of the slice starting at `start`. */
  slice(start: number, content: string): string[];
}

export function textTerms(text: string): TextTerms {
  if (NON_ASCII.test(text)) {
    return { all: () => analyze(text), slice: (_start, content) => analyze(content) };
  }
  const lower = text.toLowerCase();
  const starts: number[] = [];
  const ends: number[] = [];
  /** Null for a stop word. */
  const stemmed: (string | null)[] = [];
  const words = new RegExp(ASCII_WORD.source, 'g');
  for (let match = words.exec(lower); match; match = words.exec(lower)) {
    const word = match[0];
    starts.push(match.index);
    ends.push(match.index + word.length);
    stemmed.push(STOP_WORDS.has(word) ? null : stem(word.length > MAX_TERM_LENGTH ? word.slice(0, MAX_TERM_LENGTH) : word));
  }
  const isWordCharacter = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const cutsWord = (at: number) => at > 0 && at < text.length && isWordCharacter(text.charCodeAt(at - 1)) && isWordCharacter(text.charCodeAt(at));
  const collect = (from: number, to: number): string[] => {
    // The first word starting at or after `from`.
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (starts[middle]! < from) low = middle + 1;
      else high = middle;
    }
    const terms: string[] = [];
    for (let i = low; i < starts.length && ends[i]! <= to; i++) {
      const term = stemmed[i];
      if (term !== null && term !== undefined) terms.push(term);
    }
    return terms;
  };
  return {
    all: () => collect(0, text.length),
    slice(start, content) {
      const end = start + content.length;
      if (start < 0 || end > text.length || cutsWord(start) || cutsWord(end) || text.slice(start, end) !== content) return analyze(content);
      return collect(start, end);
    },
  };
}

/**
 * Porter stems, remembered: a text's words repeat (Zipf), and stemming was most of what indexing
 * cost. Bounded; a full memory starts again rather than tracking recency.
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
