import { workerData } from 'node:worker_threads';
import { type LocalModelKind, openLocalModel } from './local-model.ts';

/** One batch for a local model's thread (pool.ts): texts to embed, or documents to score against a query. */
export type ModelJob = { op: 'embed'; texts: readonly string[] } | { op: 'score'; query: string; documents: readonly string[] };

const { dir, kind, intraOpThreads } = workerData as { dir: string; kind: LocalModelKind; intraOpThreads?: number };
const loading = openLocalModel(dir, kind, { intraOpThreads });
// A model that cannot load answers every job with the reason, rather than the thread dying.
loading.catch(() => {});

/** A batch's result, or the model's reason for failing it (a thread that fails is piscina's to report). */
export default async function answer(job: ModelJob): Promise<{ result?: unknown; error?: string }> {
  try {
    const model = await loading;
    return { result: job.op === 'embed' ? await model.embed(job.texts) : await model.score(job.query, job.documents) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
