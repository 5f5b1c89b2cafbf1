import type { FastifyPluginAsync } from 'fastify';
import { type Dependency, DependencyUnavailable } from '../../dependencies.ts';
import { pendingMigrations } from '../../db/database.ts';
import { liveWorkers } from '../../db/worker-heartbeats.ts';
import { WORKER_LIVE_MS } from '../../engine/ingest/heartbeat.ts';
import type { AppContext } from '../context.ts';
import { bearerMatches } from '../metrics.ts';
import { timeLimited } from '../outages.ts';

/** A readiness check that has not answered by then counts as failed (an unreachable database). */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Probes for load balancers and orchestrators, and Prometheus metrics. Outside every auth scope:
 * the probes tell nothing private; the metrics ask for SIFT_METRICS_TOKEN when it is set.
 */
export const operationsRoutes: FastifyPluginAsync<AppContext> = async (app, context) => {
  const { database, metrics, config } = context;
  const opts = { schema: { hide: true } };

  app.get('/health/live', opts, async () => ({ status: 'ok' }));

  app.get('/health/ready', opts, async (_request, reply) => {
    const checks = await readiness(context);
    const ready = Object.values(checks).every((check) => check === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });

  app.get('/metrics', opts, async (request, reply) => {
    if (config.metricsToken && !bearerMatches(request.headers.authorization, config.metricsToken)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ detail: 'The metrics need the bearer token of SIFT_METRICS_TOKEN.' });
    }
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  /** Each check: "ok", or why not. */
  async function readiness({ lifecycle, objectStore }: AppContext) {
    if (lifecycle.draining()) return { server: 'shutting down' };
    const [database_, objectStore_] = await Promise.all([
      check(async () => {
        await database.db.selectFrom('organizations').select('id').limit(1).execute();
        return 'ok';
      }, 'database'),
      objectStore ? check(async () => (await objectStore.check(), 'ok'), 'object store') : null,
    ]);
    // Named only when one is configured: the raw files are in the database otherwise.
    const objectStoreCheck = objectStore_ === null ? {} : { object_store: objectStore_ };
    if (database_ !== 'ok') return { database: database_, ...objectStoreCheck };
    const migrations = await within(async () => {
      const pending = await pendingMigrations(database);
      return pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`;
    }, 'unreachable');
    const queue = lifecycle.ownIngestion()
      ? 'ok'
      : await within(async () => ((await liveWorkers(database, WORKER_LIVE_MS)) > 0 ? 'ok' : 'no live ingestion worker'), 'unreachable');
    return { database: database_, migrations, queue, ...objectStoreCheck };
  }

  /** "ok", or "unreachable" (an outage, reported so that its start and end are logged). */
  async function check(probe: () => Promise<string>, dependency: Dependency): Promise<string> {
    const failed = (reason: string) => {
      app.outages.report(new DependencyUnavailable(dependency, `readiness check: ${reason}`));
      return 'unreachable';
    };
    return timeLimited(probe(), CHECK_TIMEOUT_MS).then(
      (result) => result,
      (error: Error) => failed(error.message),
    );
  }
};

async function within(check: () => Promise<string>, failure: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(failure), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([check().catch(() => failure), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
