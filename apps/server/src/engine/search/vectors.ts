import { createHash } from 'node:crypto';
import { EmbedderUnreachable } from '../ingest/outage.ts';
import type { EmbedModel } from '../models/model.ts';
import { comparePlaces, rankHits } from './rank.ts';
import type { QueryVector } from './types.ts';

/**
 * Vectors beside the lexical index: with an embedding model configured, every row of a
 * collection (documents, pages, coarse and fine snippets) gets the model's vector of its text, and
 * searches blend the rows nearest the query's vector with the BM25 ranking (blend). Each vector
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

/** The dimensions an embedder's key records (embedderKey: `provider:model:dimensions`). */
export const embedderDimensions = (key: string): number => Number(key.slice(key.lastIndexOf(':') + 1));

/** A short name of an embedder's key in its nearest-rows index's name (PostgreSQL's `left(md5(embedder), 12)`). */
export const embedderHash = (key: string): string => createHash('md5').update(key).digest('hex').slice(0, 12);

/**
 * Rows of a collection's granularity from which it gets an approximate nearest-rows (HNSW) index,
 * on either backend. Below, an exact scan is about as fast as the index, and every vector written
 * into a graph costs its collection's ingestion.
 */
export const INDEXED_FROM = 10_000;

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

/** A vector as stored: its float32s, little-endian (SQLite blobs). */
export const vectorBytes = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/**
 * Candidates each list contributes to the fusion: the lexical and vector rankings are read this
 * deep (or k, if larger), so a row ranked well by one list only can still make the k.
 */
export const FUSION_DEPTH = 100;

/**
 * The lexical ranking's share of a fused score; the vector ranking has the rest. BM25 is the
 * stronger ranking beside the built-in embedding, so it leads: this blend ranked better than
 * reciprocal rank fusion and other shares on CISI (`npm run bench -- quality`, its hybrid part).
 */
export const LEXICAL_SHARE = 0.8;

/**
 * A score on 0..1 between `least` (0) and `most` (1); one below `least` keeps its order in the
 * last TAIL of the scale (a k past FUSION_DEPTH lists the rest in their lists' order).
 */
function scaled(score: number, least: number, most: number): number {
  if (most <= least) return 1;
  if (score >= least) return TAIL + (1 - TAIL) * ((score - least) / (most - least));
  return least > 0 ? TAIL * Math.max(0, score / least) : 0;
}
const TAIL = 1e-6;

/**
 * A normalised blend of the lexical ranking and the vector ranking (each best first, with
 * scores): each list's scores are scaled onto 0..1 between its FUSION_DEPTH-th (or last) and its
 * first, rows below that near 0 (a deeper k does not change the scale of the best), and a
 * row's fused score is LEXICAL_SHARE x its lexical one plus the rest x its vector one (0 where a
 * list lacks it), so in 0..1; ties (rounded to 12 digits, as rankHits) by the row's place (path,
 * then page or start index).
 */
export function blend<Hit extends { score: number }>(lexical: Hit[], vector: Hit[], k: number, place: (hit: Hit) => (string | number)[]): Hit[] {
  const fused = new Map<string, { hit: Hit; score: number; place: (string | number)[] }>();
  const add = (hits: Hit[], share: number) => {
    const most = hits[0]?.score ?? 0;
    const least = hits[Math.min(hits.length, FUSION_DEPTH) - 1]?.score ?? 0;
    for (const hit of hits) {
      const where = place(hit);
      const key = JSON.stringify(where);
      const entry = fused.get(key) ?? { hit, score: 0, place: where };
      entry.score += share * scaled(hit.score, least, most);
      fused.set(key, entry);
    }
  };
  add(lexical, LEXICAL_SHARE);
  add(vector, 1 - LEXICAL_SHARE);
  const ranked = [...fused.values()].map((entry) => ({ ...entry, score: Number(entry.score.toPrecision(12)) }));
  ranked.sort((a, b) => b.score - a.score || comparePlaces(a.place, b.place));
  return ranked.slice(0, k).map(({ hit, score }) => Object.assign(hit, { score }));
}

/**
 * The k best of a lexical ranking (BM25 weights) and a vector ranking (similarities, -1..1), each
 * read FUSION_DEPTH deep (or k): blended when there are vector rows (blend), else the lexical alone.
 */
export function hybridHits<Row extends { weight: number }>(lexical: Row[], vector: Row[], k: number, place: (hit: Row) => (string | number)[]): (Omit<Row, 'weight'> & { score: number })[] {
  if (vector.length === 0) return rankHits(lexical, k, place);
  const depth = Math.max(k, FUSION_DEPTH);
  // Similarities as positive weights, so rankHits's scores keep their order and ties; to 6 digits,
  // as float32 sums hold them (pgvector sums in float32, SQLite's vector_similarity in float64).
  for (const row of vector) row.weight = (1 + Number(row.weight.toPrecision(6))) / 2;
  const placed = place as unknown as (hit: Omit<Row, 'weight'>) => (string | number)[];
  return blend(rankHits(lexical, depth, place), rankHits(vector, depth, place), k, placed);
}
