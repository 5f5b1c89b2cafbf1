import { Worker } from 'node:worker_threads';
import { typeScriptThreadSource } from '../../ingest/thread.ts';
import type { EmbedModel, RerankModel } from '../model.ts';
import { ProviderError } from '../providers/http.ts';
import type { LocalModelKind } from './local-model.ts';

/**
 * A local model on worker threads (thread-entry.ts), so tokenizing and inference never hold the
 * HTTP event loop: calls are cut into batches of BATCH_SIZE texts, queued, and each free thread
 * takes the next batch. The queue is bounded: past MAX_QUEUED batches a call is refused at once
 * as a busy provider (503 with retry-after to a client), instead of waiting without end.
 */
const BATCH_SIZE = 32;
const MAX_QUEUED = 256;

type Payload = { op: 'embed'; texts: readonly string[] } | { op: 'score'; query: string; documents: readonly string[] };
interface Job {
  payload: Payload;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export interface LocalModelPool {
  embedder(id: string): EmbedModel;
  reranker(id: string): RerankModel;
  close(): Promise<void>;
}

export function localModelPool(dir: string, kind: LocalModelKind, options: { threads?: number; intraOpThreads?: number } = {}): LocalModelPool {
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const running = new Map<Worker, Job>();
  const workers = Array.from({ length: options.threads ?? 1 }, () => {
    const worker = new Worker(typeScriptThreadSource(new URL('./thread-entry.ts', import.meta.url).href), { eval: true, workerData: { dir, kind, intraOpThreads: options.intraOpThreads } });
    // An idle model must not keep the process alive.
    worker.unref();
    worker.on('message', (message: { result?: unknown; error?: string }) => {
      const job = running.get(worker)!;
      running.delete(worker);
      if (message.error !== undefined) job.reject(new ProviderError(`local model ${dir}: ${message.error}`, null, false));
      else job.resolve(message.result);
      idle.push(worker);
      next();
    });
    worker.on('error', (error) => running.get(worker)?.reject(new ProviderError(`local model ${dir}: ${error.message}`, null, true)));
    idle.push(worker);
    return worker;
  });

  function next(): void {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      running.set(worker, job);
      worker.postMessage({ id: 0, ...job.payload });
    }
  }

  function run<T>(payload: Payload): Promise<T> {
    if (queue.length >= MAX_QUEUED) return Promise.reject(new ProviderError(`local model ${dir}: ${MAX_QUEUED} batches already queued`, null, true));
    return new Promise<T>((resolve, reject) => {
      queue.push({ payload, resolve: resolve as (result: unknown) => void, reject });
      next();
    });
  }

  /** The batches of one call, queued together, answers concatenated in order. */
  async function batched<T>(items: readonly string[], payload: (batch: string[]) => Payload): Promise<T[]> {
    const batches: Promise<T[]>[] = [];
    for (let offset = 0; offset < items.length; offset += BATCH_SIZE) batches.push(run<T[]>(payload(items.slice(offset, offset + BATCH_SIZE))));
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
    close: async () => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
