import { z } from 'zod';
import type { EmbedModel, RerankModel } from '../model.ts';
import { baseUrl, type CallOptions, postJson, ProviderError } from './http.ts';

/**
 * Models served by another service, one function per API, each following that API's documented
 * request and response: the ZeroEntropy API (`/models/embed`, `/models/rerank`, which Sift itself
 * serves, so one Sift can use another), OpenAI-compatible `/v1/embeddings`, Hugging Face Text
 * Embeddings Inference (`/embed`, `/rerank`), Cohere-compatible `/v2/rerank` and Ollama's
 * `/api/embed`. Inputs go in batches of at most `batchSize` texts, one batch at a time (a
 * provider is usually one machine; parallel batches would only queue there).
 */

export interface RemoteModelOptions extends CallOptions {
  /** The provider's base URL (ZeroEntropy: the SDK-style base ending in `/v1`). */
  url: string;
  /** The provider's model id; for ZeroEntropy, unset means the id the client asked for. */
  model?: string;
  /** Texts per call; each API has its own default. */
  batchSize?: number;
}

/** Splits `items` into runs of `size`, calls `run` on each in turn and concatenates the answers. */
async function inBatches<T, R>(items: readonly T[], size: number, run: (batch: readonly T[], offset: number) => Promise<R[]>): Promise<R[]> {
  const results: R[] = [];
  for (let offset = 0; offset < items.length; offset += size) results.push(...(await run(items.slice(offset, offset + size), offset)));
  return results;
}

/** Checks a provider's answer against its documented shape. */
function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ProviderError(`${what}: the answer does not have the documented shape (${result.error.issues[0]?.message})`, null, false);
  return result.data;
}

/** L2-normalised float32 copy: the EmbedModel contract, whatever the provider does. */
export function unitVector(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const x of vector) norm += x * x;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  }
  return vector;
}

function expectCount<T>(items: T[], count: number, what: string): T[] {
  if (items.length !== count) throw new ProviderError(`${what}: ${count} inputs sent, ${items.length} answers came back`, null, false);
  return items;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Rerank answers of ZeroEntropy, Cohere and TEI: an index and a score per document, any order. */
function scoresByIndex(results: { index: number; score: number }[], count: number, what: string): number[] {
  const scores = new Array<number>(count).fill(Number.NaN);
  for (const { index, score } of results) if (index >= 0 && index < count) scores[index] = clamp01(score);
  if (scores.some(Number.isNaN)) throw new ProviderError(`${what}: not every document has a score`, null, false);
  return scores;
}

const Vectors = z.array(z.array(z.number()));

export function zeroEntropyEmbedder(id: string, options: RemoteModelOptions): EmbedModel {
  const url = `${baseUrl(options.url)}/models/embed`;
  const Answer = z.object({ results: z.array(z.object({ embedding: z.array(z.number()) })) });
  return {
    id,
    dimensions: null,
    embed: (texts, { inputType, dimensions }) =>
      inBatches(texts, options.batchSize ?? 64, async (batch) => {
        const body = { model: options.model ?? id, input_type: inputType, input: batch, encoding_format: 'float', ...(dimensions ? { dimensions } : {}) };
        const answer = parse(Answer, await postJson(url, body, options), url);
        return expectCount(answer.results, batch.length, url).map((result) => unitVector(result.embedding));
      }),
  };
}

export function zeroEntropyReranker(id: string, options: RemoteModelOptions): RerankModel {
  const url = `${baseUrl(options.url)}/models/rerank`;
  const Answer = z.object({ results: z.array(z.object({ index: z.number().int(), relevance_score: z.number() })) });
  return {
    id,
    score: (query, documents) =>
      inBatches(documents, options.batchSize ?? 1000, async (batch) => {
        const answer = parse(Answer, await postJson(url, { model: options.model ?? id, query, documents: batch }, options), url);
        return scoresByIndex(answer.results.map((r) => ({ index: r.index, score: r.relevance_score })), batch.length, url);
      }),
  };
}

export function openAiEmbedder(id: string, options: RemoteModelOptions): EmbedModel {
  const url = `${baseUrl(options.url, '/v1')}/v1/embeddings`;
  const Answer = z.object({ data: z.array(z.object({ index: z.number().int(), embedding: z.array(z.number()) })) });
  return {
    id,
    dimensions: null,
    embed: (texts, { dimensions }) =>
      inBatches(texts, options.batchSize ?? 256, async (batch) => {
        const body = { model: options.model, input: batch, encoding_format: 'float', ...(dimensions ? { dimensions } : {}) };
        const answer = parse(Answer, await postJson(url, body, options), url);
        const data = [...expectCount(answer.data, batch.length, url)].sort((a, b) => a.index - b.index);
        return data.map((item) => unitVector(item.embedding));
      }),
  };
}

export function teiEmbedder(id: string, options: RemoteModelOptions): EmbedModel {
  const url = `${baseUrl(options.url)}/embed`;
  return {
    id,
    dimensions: null,
    // TEI's default --max-client-batch-size is 32.
    embed: (texts) =>
      inBatches(texts, options.batchSize ?? 32, async (batch) => {
        const answer = parse(Vectors, await postJson(url, { inputs: batch, normalize: true, truncate: true }, options), url);
        return expectCount(answer, batch.length, url).map(unitVector);
      }),
  };
}

export function teiReranker(id: string, options: RemoteModelOptions): RerankModel {
  const url = `${baseUrl(options.url)}/rerank`;
  const Answer = z.array(z.object({ index: z.number().int(), score: z.number() }));
  return {
    id,
    score: (query, documents) =>
      inBatches(documents, options.batchSize ?? 32, async (batch) => {
        // raw_scores false: TEI applies the model's sigmoid, so scores are in 0..1.
        const answer = parse(Answer, await postJson(url, { query, texts: batch, raw_scores: false, truncate: true }, options), url);
        return scoresByIndex(answer, batch.length, url);
      }),
  };
}

export function cohereReranker(id: string, options: RemoteModelOptions): RerankModel {
  const url = `${baseUrl(options.url, '/v2')}/v2/rerank`;
  const Answer = z.object({ results: z.array(z.object({ index: z.number().int(), relevance_score: z.number() })) });
  return {
    id,
    score: (query, documents) =>
      // Cohere takes at most 1,000 documents a request.
      inBatches(documents, options.batchSize ?? 1000, async (batch) => {
        const body = { model: options.model, query, documents: batch, top_n: batch.length };
        const answer = parse(Answer, await postJson(url, body, options), url);
        return scoresByIndex(answer.results.map((r) => ({ index: r.index, score: r.relevance_score })), batch.length, url);
      }),
  };
}

export function ollamaEmbedder(id: string, options: RemoteModelOptions): EmbedModel {
  const url = `${baseUrl(options.url)}/api/embed`;
  const Answer = z.object({ embeddings: Vectors });
  return {
    id,
    dimensions: null,
    embed: (texts) =>
      inBatches(texts, options.batchSize ?? 64, async (batch) => {
        const answer = parse(Answer, await postJson(url, { model: options.model, input: batch, truncate: true }, options), url);
        return expectCount(answer.embeddings, batch.length, url).map(unitVector);
      }),
  };
}
