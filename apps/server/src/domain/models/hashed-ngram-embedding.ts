import { normalizeText, stem, words } from './text.ts';

/**
 * The built-in embedding: a hashed n-gram vector (the "hashing trick"), not a neural model.
 * Each text contributes its stemmed words, its adjacent word pairs and the character trigrams
 * of its words (so "embedding" and "embeddings", or a typo, still share most features). Every
 * feature is hashed to a bucket and a sign; buckets add up, are square-root damped so frequent
 * features do not dominate, and the vector is L2-normalised. Cosine similarity therefore
 * measures shared vocabulary and spelling, not meaning: synonyms do not meet.
 *
 * Smaller `dimensions` fold the full vector (bucket i goes to i mod d). Every option divides the
 * largest, so that is exactly the same hashing done into d buckets. Deterministic; a text's
 * vector never depends on the other inputs. An empty text (no words) has the zero vector.
 */

const WORD_WEIGHT = 1;
const PAIR_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.35;
const SEED_WORD = 0x9e3779b9;
const SEED_PAIR = 0x85ebca6b;
const SEED_TRIGRAM = 0xc2b2ae35;

/** FNV-1a over UTF-16 code units of s[start, end), seeded per feature kind. */
function hash(s: string, start: number, end: number, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Murmur3's finaliser: spreads the bits so the sign is independent of the bucket. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function add(vector: Float64Array, h: number, weight: number): void {
  vector[h % vector.length]! += mix(h) & 1 ? weight : -weight;
}

/** The raw (undamped, unnormalised) feature sums of a text in `size` buckets. */
export function featureSums(text: string, size: number): Float64Array {
  const vector = new Float64Array(size);
  const tokens = words(normalizeText(text));
  let previous = '';
  for (const word of tokens) {
    const stemmed = stem(word);
    add(vector, hash(stemmed, 0, stemmed.length, SEED_WORD), WORD_WEIGHT);
    if (previous) {
      const pair = `${previous} ${stemmed}`;
      add(vector, hash(pair, 0, pair.length, SEED_PAIR), PAIR_WEIGHT);
    }
    previous = stemmed;
    // Trigrams of the word with boundary marks, so short words still yield one (`<a>`).
    const padded = `<${word}>`;
    for (let i = 0; i + 3 <= padded.length; i++) add(vector, hash(padded, i, i + 3, SEED_TRIGRAM), TRIGRAM_WEIGHT);
  }
  return vector;
}

/** Folds `full` into `dimensions` buckets, damps, L2-normalises, as float32 (`full` is reused). */
export function finish(full: Float64Array, dimensions: number): Float32Array {
  let folded = full;
  if (dimensions !== full.length) {
    folded = new Float64Array(dimensions);
    for (let i = 0; i < full.length; i++) folded[i % dimensions]! += full[i]!;
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    const x = folded[i]!;
    folded[i] = Math.sign(x) * Math.sqrt(Math.abs(x));
    norm += Math.abs(x);
  }
  const out = new Float32Array(dimensions);
  if (norm === 0) return out;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) out[i] = folded[i]! * scale;
  return out;
}

/** One vector per text, `dimensions` long (a divisor of `size`). */
export function hashedNgramEmbeddings(texts: readonly string[], size: number, dimensions: number): Float32Array[] {
  return texts.map((text) => finish(featureSums(text, size), dimensions));
}
