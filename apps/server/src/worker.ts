import { keepNewFilesPrivate, loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/database.ts';
import { tuneForIngestion } from './engine/queue/claims.ts';
import { startHeartbeat } from './engine/ingest/heartbeat.ts';
import { keepWriteAheadLogsSmall } from './db/wal-checkpoint.ts';
import { recoverAtStart } from './engine/queue/document-states.ts';
import { surviveStrayPdfJsFailures } from './engine/ingest/stray-rejections.ts';
import { startIngestWorkers } from './engine/ingest/worker.ts';
import { configureThreadHeaps } from './memory.ts';
import { exitWithin } from './shutdown.ts';
import { openFileStore } from './storage/open-file-store.ts';

/**
 * `npm run worker`: ingestion without the HTTP server, SIFT_INGEST_WORKERS documents at a time.
 * Run as many as you like against PostgreSQL (each reads raw files from the object store or
 * PostgreSQL, never another machine's disk); a SQLite database is served by one process, so
 * there run it only while the server runs with SIFT_INGEST_WORKERS=0.
 */
// Before any thread starts (see memory.ts).
configureThreadHeaps();
keepNewFilesPrivate();
const config = loadConfigOrExit();
const database = await openDatabase(config);
await tuneForIngestion(database);
const log = {
  info: (message: string) => console.log(message),
  error: (object: unknown, message?: string) => console.error(message ?? 'error', object),
};
surviveStrayPdfJsFailures(log);
if (database.dialect === 'sqlite') log.info('ingest: SQLite: make sure the server runs with SIFT_INGEST_WORKERS=0');
const requeued = await recoverAtStart(database);
if (requeued > 0) log.info(`ingest: ${requeued} interrupted document(s) back in the queue`);
const logs = keepWriteAheadLogsSmall(database, { log });
const files = openFileStore(config.storage, database, config.dataDir);
const workers = await startIngestWorkers({ database, files, concurrency: Math.max(1, config.ingestWorkers), log });
const heartbeat = startHeartbeat(database);
log.info(`ingest: ${Math.max(1, config.ingestWorkers)} worker loop(s) on ${database.dialect}, files in ${files.kind}`);

/** Documents in hand get 5 s to finish; the rest go back to the queue; exit within 10 s. */
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  exitWithin(9500, { error: (message) => log.error(message) });
  await heartbeat.stop();
  await workers.stop({ graceMs: 5000 });
  await files.close();
  logs.stop();
  await database.destroy();
  process.exit(0);
};
// `on`, not `once`: a second signal while draining (Ctrl-C reaches `npm run worker`'s worker both
// from the terminal and through scripts/worker.mjs) must not end the drain; exitWithin bounds it.
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
