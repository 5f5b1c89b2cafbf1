import { parentPort, workerData } from 'node:worker_threads';
import { type LocalModelKind, openLocalModel } from './local-model.ts';

/**
 * A local model's thread (pool.ts): loads the model once, then answers one job at a time.
 * Messages in: `{ id, op: 'embed', texts }` or `{ id, op: 'score', query, documents }`;
 * out: `{ id, result }` or `{ id, error }`.
 */
type Job = { id: number; op: 'embed'; texts: string[] } | { id: number; op: 'score'; query: string; documents: string[] };

const { dir, kind, intraOpThreads } = workerData as { dir: string; kind: LocalModelKind; intraOpThreads?: number };
const loading = openLocalModel(dir, kind, { intraOpThreads });
// A model that cannot load answers every job with the reason, rather than the thread dying.
loading.catch(() => {});

parentPort!.on('message', async (job: Job) => {
  try {
    const model = await loading;
    const result = job.op === 'embed' ? await model.embed(job.texts) : await model.score(job.query, job.documents);
    parentPort!.postMessage({ id: job.id, result });
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
