import { keepNewFilesPrivate, loadConfigOrExit, localSignInExposure, orExitOnConfigError } from './config.ts';
import { openDatabase } from './db/database.ts';
import { buildApp } from './http/app.ts';
import { createAppContext } from './http/context.ts';
import { startHeartbeat } from './engine/ingest/heartbeat.ts';
import { startIngestThread } from './engine/ingest/thread.ts';
import { configureThreadHeaps } from './memory.ts';
import { exitWithin } from './shutdown.ts';

/** config -> database -> app -> listen. */
// Before any thread starts (see memory.ts).
configureThreadHeaps();
keepNewFilesPrivate();
const config = loadConfigOrExit();
// Before anything starts: local sign-in on the network is refused unless the operator allowed it.
const exposureWarning = orExitOnConfigError(() => localSignInExposure(config));
const database = await openDatabase(config);
let draining = false;
const ownIngestion = config.ingestWorkers > 0;
const context = createAppContext(config, database, { ownIngestion: () => ownIngestion, draining: () => draining });
const { engine } = context;
const app = await buildApp(context);

if (engine.backend === 'postgres' && config.secretIsLocal) {
  app.log.warn('SIFT_SECRET is not set: this server signs with a secret of its own data folder; set the same SIFT_SECRET on every machine of the installation');
}

const vectorSearch = config.models.embedding ? await engine.search.vectorSearch() : null;
if (vectorSearch === 'unavailable') {
  app.log.warn('SIFT_EMBEDDING_PROVIDER is set but this PostgreSQL lacks the pgvector extension (create extension vector): search stays lexical');
}
if (vectorSearch === 'exact') {
  app.log.warn('SIFT_EMBEDDING_PROVIDER is set but hnswlib-node is not installed (npm builds it with g++, make and python3): nearest rows are found by scanning every row, slower past 10,000 rows in a collection');
}

// Once, before the ingestion threads start: leases left by a process that died go back to the queue.
if (ownIngestion) {
  const requeued = await engine.queue.recoverAtStart();
  if (requeued > 0) app.log.info(`ingest: ${requeued} interrupted document(s) back in the queue`);
}
// Several threads, so one indexes (the search file's lock) while another parses and writes rows.
const ingestThreads = Array.from({ length: ownIngestion ? config.ingestThreads : 0 }, (_, i) =>
  startIngestThread({
    entry: new URL('./ingest-thread.ts', import.meta.url),
    engine,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    storage: config.storage,
    models: config.models,
    parseLimits: config.parseLimits,
    concurrency: config.ingestWorkers,
    checkpoints: i === 0,
    nice: config.ingestNice,
    log: app.log,
  }),
);
// Other servers' readiness sees that the queue is served.
const heartbeat = ownIngestion ? startHeartbeat(database) : null;

/**
 * SIGTERM: readiness turns 503, the listener closes and requests in flight finish, ingestion
 * threads finish or hand back what they hold, buffered query usage is written (on destroy),
 * and the process exits within 10 s.
 */
const shutdown = async (exitCode = 0) => {
  if (draining) return;
  draining = true;
  exitWithin(9500, app.log);
  app.log.info('shutting down: draining requests, handing back claimed documents');
  // Parses of /v1/parsers/parse-document requests in flight end now (503), not when they finish.
  engine.parser.close();
  await Promise.all([app.close(), ...ingestThreads.map((thread) => thread.stop())]);
  await heartbeat?.stop();
  await database.destroy();
  process.exit(exitCode);
};
// `on`, not `once`: a second signal while draining (Ctrl-C reaches `npm start`'s server both from
// the terminal and through the start script) must not end the drain; exitWithin bounds it.
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

/** Why the server cannot listen, said plainly (an operator's setting, not a stack trace). */
function cannotListen(error: NodeJS.ErrnoException): string {
  const why =
    error.code === 'EADDRINUSE' ? 'the port is in use (another Sift, or another program); set PORT to a free one'
    : error.code === 'EACCES' ? 'this user may not listen on that port; set PORT to one above 1023'
    : error.message;
  return `Sift cannot listen on ${config.host}:${config.port}: ${why}`;
}

const listening = await app.listen({ port: config.port, host: config.host }).then(
  () => true,
  (error: NodeJS.ErrnoException) => {
    console.error(cannotListen(error));
    return false;
  },
);
if (!listening) {
  await shutdown(1); // what started (ingestion threads, the database) stops cleanly
} else {
  const serving = `Sift is serving on http://localhost:${config.port} (${database.dialect}, ${config.oidc ? 'OpenID sign-in' : 'local sign-in'})`;
  // Said at the default level (warn) too, so `npm start` shows where to go.
  if (config.logLevel === 'info' || config.logLevel === 'debug' || config.logLevel === 'trace') app.log.info(serving);
  else if (config.logLevel === 'warn') console.log(serving);
  // At every log level: what is open to whom is not a detail.
  if (exposureWarning) console.warn(exposureWarning);
}
