import { parentPort, workerData } from 'node:worker_threads';
import type { StorageConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { keepWriteAheadLogsSmall } from '../../db/wal-checkpoint.ts';
import { notifyDocumentsQueued, tuneForIngestion } from '../queue/claims.ts';
import { openFileStore } from '../../storage/open-file-store.ts';
import { closeParsing } from './parse.ts';
import { surviveStrayPdfJsFailures } from './stray-rejections.ts';
import { lowerThisThreadsPriority } from './thread-priority.ts';
import { startIngestWorkers } from './worker.ts';

/** The ingestion thread (see thread.ts): its own database handle, the usual worker loops. */
const { dataDir, databaseUrl, storage, concurrency, graceMs, checkpoints, nice, searchesAnswered } = workerData as {
  dataDir: string;
  databaseUrl?: string;
  storage: StorageConfig;
  concurrency: number;
  graceMs: number;
  checkpoints: boolean;
  nice: number;
  searchesAnswered: Int32Array;
};
const port = parentPort!;
if (!lowerThisThreadsPriority(nice)) port.postMessage({ type: 'info', text: `ingest: could not lower this thread's priority to nice ${nice}; ingestion shares the cores with searches as an equal` });
surviveStrayPdfJsFailures({ info: (text) => port.postMessage({ type: 'info', text }) });
const database = await openDatabase({ dataDir, databaseUrl });
await tuneForIngestion(database);
const log = {
  info: (text: string) => port.postMessage({ type: 'info', text }),
  error: (detail: unknown, text?: string) => port.postMessage({ type: 'error', text: text ?? 'ingest error', detail: String((detail as { err?: unknown })?.err ?? detail) }),
};
const logs = checkpoints ? keepWriteAheadLogsSmall(database, { log }) : null;
const files = openFileStore(storage, database, dataDir);
const workers = await startIngestWorkers({ database, files, concurrency, log, searchesAnswered });
port.on('message', async (message: { type: 'queued' | 'stop' }) => {
  if (message.type === 'queued') notifyDocumentsQueued();
  if (message.type === 'stop') {
    await workers.stop({ graceMs });
    logs?.stop();
    closeParsing();
    await files.close();
    await database.destroy();
    port.close();
  }
});
