import { createKeyring } from './auth/keyring.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { buildApp } from './http/app.ts';
import { startIngestThread } from './ingest/thread.ts';
import { recoverAtStart } from './domain/document-states.ts';

/** config -> database -> app -> listen. */
const config = loadConfig();
const database = await openDatabase(config);
const app = await buildApp({ config, database, keyring: createKeyring(config.secret) });

// Once, before the ingestion threads start: leases left by a process that died go back to the queue.
if (config.ingestWorkers > 0) {
  const requeued = await recoverAtStart(database);
  if (requeued > 0) app.log.info(`ingest: ${requeued} interrupted document(s) back in the queue`);
}
// Several threads, so one indexes (the search file's lock) while another parses and writes rows.
const ingestThreads = Array.from({ length: config.ingestWorkers > 0 ? config.ingestThreads : 0 }, (_, i) =>
  startIngestThread({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, concurrency: config.ingestWorkers, checkpoints: i === 0, log: app.log }),
);

const shutdown = async () => {
  await Promise.all(ingestThreads.map((thread) => thread.stop()));
  await app.close();
  await database.destroy();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
app.log.info(`Sift is serving on http://localhost:${config.port} (${database.dialect}, ${config.oidc ? 'OpenID sign-in' : 'local sign-in'})`);
