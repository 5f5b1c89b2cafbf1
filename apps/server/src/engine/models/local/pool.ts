import { Piscina } from 'piscina';
import type { EmbedModel, RerankModel } from '../model.ts';
import { ProviderError } from '../providers/http.ts';
import type { LocalModelKind } from './local-model.ts';
import type { ModelJob } from './model-thread.ts';

/**
 * A local model on piscina's worker threads (model-thread.ts), so tokenizing and inference never
 * hold the HTTP event loop: calls are cut into batches of BATCH_SIZE texts, queued, and each free
 * thread takes the next batch. The queue is bounded: past MAX_QUEUED batches a call is refused at
 * once as a busy provider (503 with retry-after to a client), instead of waiting without end.
 */
const BATCH_SIZE = 32;
const MAX_QUEUED = 256;

export interface LocalModelPool {
  embedder(id: string): EmbedModel;
  reranker(id: string): RerankModel;
  close(): Promise<void>;
}

export function localModelPool(dir: string, kind: LocalModelKind, options: { threads?: number; intraOpThreads?: number } = {}): LocalModelPool {
  const threads = options.threads ?? 1;
  const pool = new Piscina<ModelJob, { result?: unknown; error?: string }>({
    filename: new URL('./thread-entry.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    // Inference awaits ONNX Runtime: a thread must not block in Atomics.wait between batches.
    atomics: 'disabled',
    workerData: { dir, kind, intraOpThreads: options.intraOpThreads },
  });

  async function run<T>(job: ModelJob): Promise<T> {
    if (pool.queueSize >= MAX_QUEUED) throw new ProviderError(`local model ${dir}: ${MAX_QUEUED} batches already queued`, null, true);
    let answer: { result?: unknown; error?: string };
    try {
      answer = await pool.run(job);
    } catch (error) {
      throw new ProviderError(`local model ${dir}: ${(error as Error).message}`, null, true);
    }
    if (answer.error !== undefined) throw new ProviderError(`local model ${dir}: ${answer.error}`, null, false);
    return answer.result as T;
  }

  /** The batches of one call, queued together, answers concatenated in order. */
  async function batched<T>(items: readonly string[], job: (batch: string[]) => ModelJob): Promise<T[]> {
    const batches: Promise<T[]>[] = [];
    for (let offset = 0; offset < items.length; offset += BATCH_SIZE) batches.push(run<T[]>(job(items.slice(offset, offset + BATCH_SIZE))));
    return (await Promise.all(batches)).flat();
  }

  return {
    embedder: (id) => ({
      id,
      dimensions: null,
      // Symmetric: sentence-transformers models that want a query prefix take it in the text.
      embed: (texts) => batched<Float32Array>(texts, (batch) => ({ op: 'embed', texts: batch })),
    }),
    reranker: (id) => ({ id, score: (query, documents) => batched<number>(documents, (batch) => ({ op: 'score', query, documents: batch })) }),
    close: () => pool.destroy(),
  };
}
