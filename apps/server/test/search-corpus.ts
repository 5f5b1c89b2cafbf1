/**
 * A fixed, generated corpus for search tests: English words with inflections (so stemming and
 * stop words matter), Zipf-like frequencies (so IDF matters), documents of one to three pages
 * and varied lengths (so length normalisation matters), and two identical documents (ties).
 * Seeded: every run and both backends see the same text.
 */
const WORDS = (
  'otter heron kelp river forest library catalog index record archive author title subject journal citation ' +
  'search retrieval query document page reader scholar science network computer system method analysis ' +
  'language translation machine memory storage paper report study research survey measure value weight ' +
  'ocean shore island harbor vessel sailor engine signal channel window garden flower orchard farmer market ' +
  'winter summer spring autumn mountain valley village castle bridge tower lantern candle mirror painter ' +
  'music rhythm melody singer dancer theater stage museum gallery sculpture statue marble granite copper'
).split(' ');
const SUFFIXES = ['', '', '', 's', 'ing', 'ed', 'er'];
const FILLERS = 'the of and a to in is that for it as with was on by this are from or'.split(' ');

function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CorpusDocument {
  path: string;
  pages: string[];
}

/** `count` documents; `seed` picks the words, `prefix` the paths. */
export function searchCorpus(seed: number, count: number, prefix = 'doc'): CorpusDocument[] {
  const next = seeded(seed);
  const word = () => {
    if (next() < 0.3) return FILLERS[Math.floor(next() * FILLERS.length)]!;
    const base = WORDS[Math.floor(next() ** 1.6 * WORDS.length)]!;
    return base + SUFFIXES[Math.floor(next() * SUFFIXES.length)]!;
  };
  const sentence = () => {
    const words = Array.from({ length: 4 + Math.floor(next() * 12) }, word);
    return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
  };
  const page = () => Array.from({ length: 2 + Math.floor(next() * 30) }, sentence).join(' ');
  const documents: CorpusDocument[] = [];
  for (let i = 0; i < count; i++) {
    documents.push({ path: `${prefix}-${String(i).padStart(3, '0')}.txt`, pages: Array.from({ length: 1 + Math.floor(next() * 3) }, page) });
  }
  documents.push({ path: `${prefix}-twin-a.txt`, pages: ['Otters and herons share the kelp river.'] });
  documents.push({ path: `${prefix}-twin-b.txt`, pages: ['Otters and herons share the kelp river.'] });
  return documents;
}

/** Queries over the corpus' words: single rare and common terms, inflections, several terms, stop words. */
export const SEARCH_QUERIES = [
  'otter',
  'otters herons',
  'library catalog indexing',
  'searching retrieval of documents',
  'the copper statue in the museum',
  'granite marble sculptures',
  'winter mountain village',
  'machine translation',
  'signal channels network computers',
  'what is the kelp river',
  'lantern',
  'painters painting painted',
];
