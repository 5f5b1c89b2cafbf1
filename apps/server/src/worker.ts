import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { tuneForIngestion } from './db/queue.ts';
import { keepWriteAheadLogsSmall } from './db/wal-checkpoint.ts';
import { recoverAtStart } from './domain/document-states.ts';
import { startIngestWorkers } from './ingest/worker.ts';

/**
 * `npm run worker`: ingestion without the HTTP server, SIFT_INGEST_WORKERS documents at a time.
 * Run as many as you like against PostgreSQL; a SQLite database is served by one process, so
 * there run it only while the server runs with SIFT_INGEST_WORKERS=0.
 */
const config = loadConfig();
const database = await openDatabase(config);
await tuneForIngestion(database);
const log = {
  info: (message: string) => console.log(message),
  error: (object: unknown, message?: string) => console.error(message ?? 'error', object),
};
if (database.dialect === 'sqlite') log.info('ingest: SQLite: make sure the server runs with SIFT_INGEST_WORKERS=0');
const requeued = await recoverAtStart(database);
if (requeued > 0) log.info(`ingest: ${requeued} interrupted document(s) back in the queue`);
const logs = keepWriteAheadLogsSmall(database);
const workers = await startIngestWorkers({ database, dataDir: config.dataDir, concurrency: Math.max(1, config.ingestWorkers), log });
log.info(`ingest: ${Math.max(1, config.ingestWorkers)} worker loop(s) on ${database.dialect}`);

const shutdown = async () => {
  await workers.stop();
  logs.stop();
  await database.destroy();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
