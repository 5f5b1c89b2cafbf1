import { keepNewFilesPrivate, loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/database.ts';
import { startHeartbeat } from './engine/ingest/heartbeat.ts';
import { keepWriteAheadLogsSmall } from './db/wal-checkpoint.ts';
import { addDocumentEvent } from './domain/usage-events.ts';
import { modelRegistry } from './domain/models/registry.ts';
import { createEngine } from './engine/engine.ts';
import { indexingEmbedder } from './engine/models/configured.ts';
import { surviveStrayPdfJsFailures } from './engine/ingest/stray-rejections.ts';
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
const log = {
  info: (message: string) => console.log(message),
  error: (object: unknown, message?: string) => console.error(message ?? 'error', object),
};
surviveStrayPdfJsFailures(log);
const files = openFileStore(config.storage, database, config.dataDir);
const engine = createEngine({ database, files, usage: addDocumentEvent, embedder: indexingEmbedder(config.models, modelRegistry(config.models).embedder), parseLimits: config.parseLimits, log });
await engine.tuneForIngestion();
if (engine.backend === 'sqlite') log.info('ingest: SQLite: make sure the server runs with SIFT_INGEST_WORKERS=0');
const requeued = await engine.queue.recoverAtStart();
if (requeued > 0) log.info(`ingest: ${requeued} interrupted document(s) back in the queue`);
const logs = keepWriteAheadLogsSmall(database, { log });
const workers = await engine.startIngestion({ concurrency: Math.max(1, config.ingestWorkers) });
const heartbeat = startHeartbeat(database);
log.info(`ingest: ${Math.max(1, config.ingestWorkers)} worker loop(s) on ${engine.backend}, files in ${files.kind}`);

/** Documents in hand get 5 s to finish; the rest go back to the queue; exit within 10 s. */
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  exitWithin(9500, { error: (message) => log.error(message) });
  await heartbeat.stop();
  await workers.stop({ graceMs: 5000 });
  engine.parser.close();
  await files.close();
  logs.stop();
  await database.destroy();
  process.exit(0);
};
// `on`, not `once`: a second signal while draining (Ctrl-C reaches `npm run worker`'s worker both
// from the terminal and through scripts/worker.mjs) must not end the drain; exitWithin bounds it.
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
