import { STOPWORDS, terms } from './text.ts';

/**
 * The built-in reranker: a lexical relevance model, not a neural one. It reads words, not
 * meaning: a document scores well when it contains the query's words (or close forms of them),
 * several times, and the query's neighbouring words next to each other.
 *
 * A score depends only on the query and that one document, as the OpenAPI description promises:
 * there are no corpus statistics (no idf over the request's documents, no average length of
 * them). What BM25 takes from a corpus is replaced by fixed surrogates:
 * - term weight: function words weigh little, longer words more (they are rarer in any
 *   vocabulary), numbers fully (identifiers, years);
 * - length normalisation against a fixed typical passage length instead of the average.
 *
 * score = coverage (weighted share of query terms found, with BM25 saturation of their counts)
 *         blended with proximity (share of adjacent query word pairs found within 3 words in
 *         the document, in order). It lies in 0..1 and is deterministic.
 */

const K1 = 1.2;
const B = 0.5;
/** Words in a "typical" passage; stands in for BM25's corpus average length. */
const TYPICAL_LENGTH = 200;
/** A prefix-related word ("rerank" for "reranker") counts as half an occurrence. */
const PARTIAL_CREDIT = 0.5;
const MIN_PARTIAL_LENGTH = 4;
/** Query word pairs count as adjacent in the document when at most this many positions apart. */
const PAIR_WINDOW = 3;
const PROXIMITY_SHARE = 0.2;

interface QueryTerm {
  term: string;
  weight: number;
  content: boolean;
}

interface PreparedQuery {
  terms: QueryTerm[];
  index: Map<string, number>;
  /** Indexes of content terms that are neighbours in the query, in order. */
  pairs: Array<[number, number]>;
  totalWeight: number;
  partialCandidates: number[];
}

const NUMBER = /^\p{N}+$/u;

/** A corpus-free stand-in for idf: function words 0.15, numbers 1, other words by length (0.5..1.2). */
export function termWeight(term: string): number {
  if (STOPWORDS.has(term)) return 0.15;
  if (NUMBER.test(term)) return 1;
  return Math.min(1.2, Math.max(0.5, 0.4 + 0.1 * term.length));
}

export function prepareQuery(query: string): PreparedQuery {
  const sequence = terms(query);
  const index = new Map<string, number>();
  const prepared: QueryTerm[] = [];
  const counts: number[] = [];
  const pairs: Array<[number, number]> = [];
  let previousContent = -1;
  for (const term of sequence) {
    let i = index.get(term);
    if (i === undefined) {
      i = prepared.length;
      index.set(term, i);
      prepared.push({ term, weight: termWeight(term), content: !STOPWORDS.has(term) });
      counts.push(0);
    }
    counts[i]! += 1;
    if (!prepared[i]!.content) continue;
    if (previousContent >= 0 && previousContent !== i) pairs.push([previousContent, i]);
    previousContent = i;
  }
  // A word repeated in the query matters more, sublinearly.
  prepared.forEach((t, i) => (t.weight *= 1 + Math.log(counts[i]!)));
  return {
    terms: prepared,
    index,
    pairs,
    totalWeight: prepared.reduce((sum, t) => sum + t.weight, 0),
    partialCandidates: prepared.flatMap((t, i) => (t.content && t.term.length >= MIN_PARTIAL_LENGTH ? [i] : [])),
  };
}

/** The relevance of one document to a prepared query, in 0..1. */
export function scoreDocument(query: PreparedQuery, document: string): number {
  const n = query.terms.length;
  if (n === 0) return 0;
  const docTerms = terms(document);
  const length = docTerms.length;
  if (length === 0) return 0;

  const frequency = new Float64Array(n);
  const positions: number[][] = query.terms.map(() => []);
  for (let p = 0; p < length; p++) {
    const term = docTerms[p]!;
    const i = query.index.get(term);
    if (i !== undefined) {
      frequency[i]! += 1;
      positions[i]!.push(p);
    } else if (term.length >= MIN_PARTIAL_LENGTH) {
      for (const q of query.partialCandidates) if (prefixRelated(query.terms[q]!.term, term)) frequency[q]! += PARTIAL_CREDIT;
    }
  }

  const k = K1 * (1 - B + (B * length) / TYPICAL_LENGTH);
  let covered = 0;
  for (let i = 0; i < n; i++) {
    const tf = frequency[i]!;
    if (tf === 0) continue;
    // Being there at all is half of a term's credit; repetition earns the rest, saturating.
    covered += query.terms[i]!.weight * (0.5 * Math.min(1, tf) + 0.5 * (tf / (tf + k)));
  }
  const coverage = covered / query.totalWeight;
  if (query.pairs.length === 0) return clamp01(coverage);

  let adjacent = 0;
  for (const [a, b] of query.pairs) if (near(positions[a]!, positions[b]!)) adjacent += 1;
  return clamp01((1 - PROXIMITY_SHARE) * coverage + (PROXIMITY_SHARE * adjacent) / query.pairs.length);
}

/** One word begins the other, and the shorter is most of the longer ("index"/"indexer"). */
function prefixRelated(queryTerm: string, term: string): boolean {
  if (term.length > queryTerm.length) return term.startsWith(queryTerm);
  return term.length >= queryTerm.length - 3 && queryTerm.startsWith(term);
}

/** Some occurrence of `b` follows one of `a` within PAIR_WINDOW positions (both lists ascending). */
function near(a: number[], b: number[]): boolean {
  let j = 0;
  for (const p of a) {
    while (j < b.length && b[j]! <= p) j++;
    if (j === b.length) return false;
    if (b[j]! - p <= PAIR_WINDOW) return true;
  }
  return false;
}

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/** Scores every document against one query; each score is computed from that document alone. */
export function lexicalRelevance(query: string, documents: readonly string[]): number[] {
  const prepared = prepareQuery(query);
  return documents.map((document) => scoreDocument(prepared, document));
}
