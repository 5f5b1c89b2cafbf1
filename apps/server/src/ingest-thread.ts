import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './db/database.ts';
import { keepWriteAheadLogsSmall } from './db/wal-checkpoint.ts';
import { addDocumentEvent } from './domain/usage-events.ts';
import { modelRegistry } from './domain/models/registry.ts';
import { createEngine } from './engine/engine.ts';
import { indexingEmbedder } from './engine/models/configured.ts';
import { surviveStrayPdfJsFailures } from './engine/ingest/stray-rejections.ts';
import type { IngestThreadData } from './engine/ingest/thread.ts';
import { lowerThisThreadsPriority } from './engine/ingest/thread-priority.ts';
import { SearchActivity } from './engine/search-activity.ts';
import { openFileStore } from './storage/open-file-store.ts';

/** A server's ingestion thread (engine/ingest/thread.ts starts it): its own database handle and engine, the usual worker loops. */
const { dataDir, databaseUrl, storage, models, parseLimits, concurrency, graceMs, checkpoints, nice, searchActivity } = workerData as IngestThreadData;
const port = parentPort!;
if (!lowerThisThreadsPriority(nice)) port.postMessage({ type: 'info', text: `ingest: could not lower this thread's priority to nice ${nice}; ingestion shares the cores with searches as an equal` });
surviveStrayPdfJsFailures({ info: (text) => port.postMessage({ type: 'info', text }) });
// The server brought the search files in line before starting its threads; the other thread may be writing one now.
const database = await openDatabase({ dataDir, databaseUrl, searchFilesInLine: true });
const log = {
  info: (text: string) => port.postMessage({ type: 'info', text }),
  error: (detail: unknown, text?: string) => port.postMessage({ type: 'error', text: text ?? 'ingest error', detail: String((detail as { err?: unknown })?.err ?? detail) }),
};
const files = openFileStore(storage, database, dataDir);
const embedder = indexingEmbedder(models, modelRegistry(models).embedder);
const engine = createEngine({ database, files, usage: addDocumentEvent, embedder, parseLimits, log, options: { searchActivity: new SearchActivity(searchActivity) } });
await engine.tuneForIngestion();
const logs = checkpoints ? keepWriteAheadLogsSmall(database, { log }) : null;
const workers = await engine.startIngestion({ concurrency });
port.on('message', async (message: { type: 'queued' | 'stop' }) => {
  if (message.type === 'queued') engine.queue.notifyQueued();
  if (message.type === 'stop') {
    await workers.stop({ graceMs });
    logs?.stop();
    engine.parser.close();
    await files.close();
    await database.destroy();
    port.close();
  }
});
