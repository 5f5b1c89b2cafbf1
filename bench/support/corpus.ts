import { random } from '../random.ts';

/**
 * Generated corpora, the same on every run (seeded): English function words mixed with a
 * Zipf-like vocabulary of 20,000 made-up content words, and queries of 2 to 4 mid-frequency
 * content words (sometimes with "the").
 */

const COMMON =
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find'.split(
    ' ',
  );
const SYLLABLES = ['ka', 'ro', 'mi', 'ten', 'sul', 'ar', 've', 'lo', 'dra', 'in', 'qui', 'pe', 'st', 'or', 'na', 'el', 'bu', 'fa', 'gri', 'mon'];
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});

export function textGenerator(seed: number) {
  const next = random(seed);
  const contentWord = () => VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(1 / (next() * 0.9995 + 0.0005)) - 1)]!;
  const word = () => (next() < 0.45 ? COMMON[Math.floor(next() * COMMON.length)]! : contentWord());
  const text = (chars: number) => {
    const parts: string[] = [];
    let length = 0;
    while (length < chars) {
      const w = next() < 0.07 ? `${word()}.` : word();
      parts.push(w);
      length += w.length + 1;
    }
    return parts.join(' ');
  };
  const query = () => {
    const words = Array.from({ length: 2 + Math.floor(next() * 3) }, () => VOCABULARY[20 + Math.floor(next() * 3000)]!);
    if (next() < 0.3) words.splice(1, 0, 'the');
    return words.join(' ');
  };
  const between = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  return { text, query, between };
}

export type DocumentContent = { type: 'text'; text: string } | { type: 'text-pages'; pages: string[] };

export interface BenchDocument {
  path: string;
  content: DocumentContent;
  /** The pages as Sift stores them (one for plain text). */
  pages: string[];
  /** UTF-8 bytes of the text. */
  bytes: number;
}

export type CorpusShape = 'small' | 'large';

export const SHAPES: Record<CorpusShape, string> = {
  small: 'small documents, 2-8 KB, plain text',
  large: 'large documents, 256 KB-1 MB, text-pages of 2-4 KB',
};

/**
 * `megabytes` of documents: small ones of 2-8 KB sent as plain text (a note, an e-mail, an
 * abstract), or large ones of 256 KB to 1 MB sent as pages of 2 to 4 KB (a report, a book).
 */
export function generateCorpus(shape: CorpusShape, megabytes: number, seed = 7, prefix: string = shape): BenchDocument[] {
  const generate = textGenerator(seed);
  const documents: BenchDocument[] = [];
  let total = 0;
  for (let i = 0; total < megabytes * 1e6; i++) {
    const path = `${prefix}/${String(i).padStart(5, '0')}.txt`;
    let pages: string[];
    if (shape === 'small') {
      pages = [generate.text(generate.between(2_000, 8_000))];
    } else {
      const size = generate.between(256_000, 1_000_000);
      pages = [];
      for (let bytes = 0; bytes < size; ) {
        const page = generate.text(generate.between(2_000, 4_000));
        pages.push(page);
        bytes += page.length;
      }
    }
    const bytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page), 0);
    const content: DocumentContent = pages.length === 1 ? { type: 'text', text: pages[0]! } : { type: 'text-pages', pages };
    documents.push({ path, content, pages, bytes });
    total += bytes;
  }
  return documents;
}

/** Queries from a generator of their own, so they do not depend on the corpus size. */
export function generateQueries(count: number, seed = 11): string[] {
  const generate = textGenerator(seed);
  return Array.from({ length: count }, () => generate.query());
}

/** Queries of two of the eight most frequent content words, which nearly every row holds. */
export function generateCommonQueries(count: number, seed = 13): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => `${VOCABULARY[Math.floor(next() * 8)]} ${VOCABULARY[Math.floor(next() * 8)]}`);
}

export const megabytesOf = (documents: BenchDocument[]) => documents.reduce((sum, document) => sum + document.bytes, 0) / 1e6;
