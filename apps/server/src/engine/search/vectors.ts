import { EmbedderUnreachable } from '../ingest/outage.ts';
import type { EmbedModel } from '../models/model.ts';
import { comparePlaces, rankHits } from './rank.ts';

/**
 * Vectors beside the lexical index: with an embedding model configured, every row of a
 * collection (documents, pages, coarse and fine snippets) gets the model's vector of its text, and
 * searches fuse the rows nearest the query's vector with the BM25 ranking (fuse). Each vector
 * records the embedder it came from (embedderKey): a search uses only those of the configured
 * embedder, and upkeep re-embeds the rest.
 */
export interface VectorEmbedder {
  /** Provider and model, e.g. `zeroentropy:zembed-1`: with the dimensions, what a vector records. */
  readonly name: string;
  readonly model: EmbedModel;
}

/** What a stored vector records of its embedder: provider, model and dimensions. */
export const embedderKey = (embedder: VectorEmbedder, dimensions: number): string => `${embedder.name}:${dimensions}`;

/**
 * The text a row is embedded by: its first EMBED_CHARS characters. Documents and pages may be
 * megabytes, which no provider takes in one input; their opening stands for them.
 */
export const EMBED_CHARS = 4000;

/** Texts per call to the embedder: the provider splits further as its API needs. */
export const EMBED_BATCH = 64;

/** These texts' vectors for indexing; any failure is the provider's outage (documents wait, none fails). */
export async function embedDocuments(embedder: VectorEmbedder, texts: readonly string[]): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  try {
    for (let offset = 0; offset < texts.length; offset += EMBED_BATCH) {
      const batch = texts.slice(offset, offset + EMBED_BATCH).map((text) => text.slice(0, EMBED_CHARS));
      vectors.push(...(await embedder.model.embed(batch, { inputType: 'document' })));
    }
  } catch (error) {
    throw new EmbedderUnreachable(error);
  }
  return vectors;
}

/** A query's vector and the key of the vectors it compares with; null when the provider fails (the search stays lexical). */
export async function queryVector(embedder: VectorEmbedder, query: string): Promise<QueryVector | null> {
  try {
    const [vector] = await embedder.model.embed([query.slice(0, EMBED_CHARS)], { inputType: 'query' });
    return vector ? { values: vector, embedder: embedderKey(embedder, vector.length) } : null;
  } catch {
    return null;
  }
}

export interface QueryVector {
  values: Float32Array;
  /** The embedderKey of the vectors it may be compared with. */
  embedder: string;
}

/** A vector as stored: its float32s, little-endian (SQLite blobs). */
export const vectorBytes = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/**
 * Candidates each list contributes to the fusion: the lexical and vector rankings are read this
 * deep (or k, if larger), so a row ranked well by one list only can still make the k.
 */
export const FUSION_DEPTH = 100;

/** Reciprocal rank fusion's constant: a row's share from a list is 1 / (RRF_K + its rank). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of the lexical ranking and the vector ranking (each best first, with
 * scores): a row's fused weight is the sum over the lists holding it of 1 / (RRF_K + rank), rank
 * from 1, rows of equal score sharing the best rank among them. Scores are
 * that weight over the most it can be (first in both lists), so in 0..1 and monotonic in it; ties
 * (rounded to 12 digits, as rankHits) by the row's place (path, then page or start index).
 */
export function fuse<Hit extends { score: number }>(lexical: Hit[], vector: Hit[], k: number, place: (hit: Hit) => (string | number)[]): Hit[] {
  const fused = new Map<string, { hit: Hit; weight: number; place: (string | number)[] }>();
  const add = (hits: Hit[]) => {
    let rank = 0;
    hits.forEach((hit, i) => {
      // Rows of equal score share a rank: which of them a list names first is only their place.
      if (i === 0 || hit.score !== hits[i - 1]!.score) rank = i + 1;
      const where = place(hit);
      const key = JSON.stringify(where);
      const entry = fused.get(key) ?? { hit, weight: 0, place: where };
      entry.weight += 1 / (RRF_K + rank);
      fused.set(key, entry);
    });
  };
  add(lexical);
  add(vector);
  const most = 2 / (RRF_K + 1);
  const ranked = [...fused.values()].map((entry) => ({ ...entry, weight: Number((entry.weight / most).toPrecision(12)) }));
  ranked.sort((a, b) => b.weight - a.weight || comparePlaces(a.place, b.place));
  return ranked.slice(0, k).map(({ hit, weight }) => Object.assign(hit, { score: weight }));
}

/**
 * The k best of a lexical ranking (BM25 weights) and a vector ranking (similarities, -1..1), each
 * read FUSION_DEPTH deep (or k): fused when there are vector rows (fuse), else the lexical alone.
 */
export function hybridHits<Row extends { weight: number }>(lexical: Row[], vector: Row[], k: number, place: (hit: Row) => (string | number)[]): (Omit<Row, 'weight'> & { score: number })[] {
  if (vector.length === 0) return rankHits(lexical, k, place);
  const depth = Math.max(k, FUSION_DEPTH);
  // Similarities as positive weights, so rankHits's scores keep their order and ties.
  for (const row of vector) row.weight = (1 + row.weight) / 2;
  const placed = place as unknown as (hit: Omit<Row, 'weight'>) => (string | number)[];
  return fuse(rankHits(lexical, depth, place), rankHits(vector, depth, place), k, placed);
}
