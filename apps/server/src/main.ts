import { createKeyring } from './auth/keyring.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { buildApp } from './http/app.ts';
import { startIngestThread } from './ingest/thread.ts';

/** config -> database -> app -> listen. */
const config = loadConfig();
const database = await openDatabase(config);
const app = await buildApp({ config, database, keyring: createKeyring(config.secret) });

const workers =
  config.ingestWorkers > 0
    ? startIngestThread({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, concurrency: config.ingestWorkers, log: app.log })
    : null;

const shutdown = async () => {
  await workers?.stop();
  await app.close();
  await database.destroy();
  process.exit(0);
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
app.log.info(`Sift is serving on http://localhost:${config.port} (${database.dialect}, ${config.oidc ? 'OpenID sign-in' : 'local sign-in'})`);
