import { normalizeText, stem, words } from './text.ts';

/**
 * The built-in embedding: a hashed n-gram vector (the "hashing trick"), not a neural model.
 * Each text contributes its stemmed words, its adjacent word pairs and the character trigrams
 * of its words (so "embedding" and "embeddings", or a typo, still share most features). Every
 * feature is hashed to a bucket and a sign; buckets add up, are square-root damped so frequent
 * features do not dominate, and the vector is L2-normalised. Cosine similarity therefore
 * measures shared vocabulary and spelling, not meaning: synonyms do not meet.
 *
 * Smaller `dimensions` hash into fewer buckets (h mod d). Every option divides the largest, so a
 * smaller vector is the full one folded (bucket i added into i mod d) before damping.
 * Deterministic; a text's vector never depends on the other inputs. An empty text (no words)
 * has the zero vector.
 */

const WORD_WEIGHT = 1;
const PAIR_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.35;
const SEED_WORD = 0x9e3779b9;
const SEED_PAIR = 0x85ebca6b;
const SEED_TRIGRAM = 0xc2b2ae35;

/** FNV-1a over UTF-16 code units, seeded per feature kind. */
function hash(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const BEGIN = 0x3c; // '<'
const END = 0x3e; // '>'

/** FNV-1a of the trigram of `<word>` starting at `i` (-1 is the begin mark), without building the string. */
function trigramHash(word: string, i: number): number {
  let h = (0x811c9dc5 ^ SEED_TRIGRAM) >>> 0;
  for (let j = i; j < i + 3; j++) {
    const c = j < 0 ? BEGIN : j >= word.length ? END : word.charCodeAt(j);
    h = Math.imul(h ^ c, 0x01000193);
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

/** Adds the raw (undamped, unnormalised) feature sums of a text into `vector` (its length is the bucket count). */
export function addFeatures(text: string, vector: Float64Array): void {
  let previous = -1;
  for (const word of words(normalizeText(text))) {
    const current = hash(stem(word), SEED_WORD);
    add(vector, current, WORD_WEIGHT);
    // The pair feature: the two words' hashes combined, in order.
    if (previous >= 0) add(vector, mix((Math.imul(previous, 0x01000193) ^ current ^ SEED_PAIR) >>> 0), PAIR_WEIGHT);
    previous = current;
    // Trigrams of `<word>`, boundary marks included, so a short word still yields one (`<a>`).
    for (let i = -1; i + 2 <= word.length; i++) add(vector, trigramHash(word, i), TRIGRAM_WEIGHT);
  }
}

/** Damps and L2-normalises the feature sums into `out` (float32). */
export function finish(sums: Float64Array, out: Float32Array): void {
  let norm = 0;
  for (let i = 0; i < sums.length; i++) norm += Math.abs(sums[i]!);
  // After damping x -> sign(x)·sqrt(|x|), the squared norm is the sum of |x|.
  if (norm === 0) return;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < sums.length; i++) {
    const x = sums[i]!;
    out[i] = (x < 0 ? -Math.sqrt(-x) : Math.sqrt(x)) * scale;
  }
}

/** One vector of `dimensions` floats per text: views into one allocation. */
export function hashedNgramEmbeddings(texts: readonly string[], dimensions: number): Float32Array[] {
  const all = new Float32Array(texts.length * dimensions);
  const sums = new Float64Array(dimensions);
  return texts.map((text, t) => {
    sums.fill(0);
    addFeatures(text, sums);
    const out = all.subarray(t * dimensions, (t + 1) * dimensions);
    finish(sums, out);
    return out;
  });
}
