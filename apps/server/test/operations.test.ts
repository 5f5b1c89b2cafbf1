import { createServer, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, pendingMigrations } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { startHeartbeat } from '../src/engine/ingest/heartbeat.ts';
import { type Harness, startHarness } from './harness.ts';
import { freshPostgresSchema } from './postgres-schema.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** Probes for load balancers and Prometheus metrics, as an operator's tools see them. */
const get = (h: Harness, url: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url, headers });

describe('probes', () => {
  let h: Harness;
  let ownIngestion = false;
  let draining = false;
  beforeAll(async () => {
    h = await startHarness({}, { lifecycle: { ownIngestion: () => ownIngestion, draining: () => draining } });
  });
  afterAll(() => h?.close());

  test('liveness answers JSON while the process runs', async () => {
    const live = await get(h, '/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.headers['content-type']).toMatch(/application\/json/);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  test('readiness is 503 until a worker serves the queue, then 200 with every check ok', async () => {
    const waiting = await get(h, '/health/ready');
    expect(waiting.statusCode).toBe(503);
    expect(waiting.json()).toEqual({ status: 'not ready', checks: { database: 'ok', migrations: 'ok', queue: 'no live ingestion worker' } });

    const heartbeat = startHeartbeat(h.database); // a worker process elsewhere
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ready = await get(h, '/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok' } });
    await heartbeat.stop(); // a worker that stops says so
    expect((await get(h, '/health/ready')).statusCode).toBe(503);

    ownIngestion = true; // the server's own ingestion threads
    expect((await get(h, '/health/ready')).statusCode).toBe(200);
  });

  test('readiness is 503 once shutdown has begun', async () => {
    draining = true;
    const response = await get(h, '/health/ready');
    draining = false;
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'not ready', checks: { server: 'shutting down' } });
  });

  test('unknown paths under the probes answer JSON 404, not the dashboard page', async () => {
    const response = await get(h, '/health/nothing');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
  });
});

describe('metrics', () => {
  let h: Harness;
  let f: Awaited<ReturnType<typeof providerFixtures>>;
  beforeAll(async () => {
    h = await startHarness({ SIFT_METRICS_TOKEN: 'metrics-token-for-tests' });
    f = await providerFixtures(h);
  });
  afterAll(async () => {
    await f?.workers.stop();
    await h?.close();
  });

  test('ask for the bearer token when SIFT_METRICS_TOKEN is set', async () => {
    expect((await get(h, '/metrics')).statusCode).toBe(401);
    expect((await get(h, '/metrics', { authorization: 'Bearer wrong' })).statusCode).toBe(401);
    expect((await get(h, '/metrics', { authorization: 'Bearer metrics-token-for-tests' })).statusCode).toBe(200);
  });

  test('count requests by route and status, time searches by kind, and report the queue, the index, the reranker and the pool', async () => {
    await h.call('/v1/collections/add-collection', { collection_name: 'metered' }, f.keyA);
    await h.call('/v1/documents/add-document', { collection_name: 'metered', path: 'a.txt', content: { type: 'text', text: 'metrics for the operators' } }, f.keyA);
    await f.workers.idle();
    expect((await h.call('/v1/status/get-status', { collection_name: 'metered' }, f.keyA)).body.num_indexed_documents).toBe(1);
    await h.call('/v1/queries/top-documents', { collection_name: 'metered', query: 'operators', k: 1 }, f.keyA);
    await h.call('/v1/queries/top-snippets', { collection_name: 'metered', query: 'operators', k: 1 }, f.keyA);
    await h.call('/v1/queries/top-snippets', { collection_name: 'nope', query: 'operators', k: 1 }, f.keyA);
    const reranked = await h.call('/v1/models/rerank', { model: 'zerank-1', query: 'q', documents: ['one', 'two'] }, f.keyA);
    expect(reranked.status).toBe(200);

    const response = await get(h, '/metrics', { authorization: 'Bearer metrics-token-for-tests' });
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    const value = (series: string) => Number(text.split('\n').find((line) => line.startsWith(`${series} `))?.split(' ')[1]);
    expect(value('sift_http_requests_total{method="POST",route="/v1/queries/top-documents",status="200"}')).toBe(1);
    expect(value('sift_http_requests_total{method="POST",route="/v1/queries/top-snippets",status="404"}')).toBe(1);
    expect(value('sift_http_request_duration_seconds_count{method="POST",route="/v1/documents/add-document",status="201"}')).toBe(1);
    expect(value('sift_search_duration_seconds_count{kind="top-documents"}')).toBe(1);
    expect(value('sift_search_duration_seconds_count{kind="top-snippets"}')).toBe(1); // the 404 is not a search
    expect(value('sift_queue_documents{status="indexed"}')).toBeGreaterThanOrEqual(1);
    expect(value('sift_documents_indexed')).toBeGreaterThanOrEqual(1);
    expect(value('sift_indexed_bytes')).toBeGreaterThanOrEqual('metrics for the operators'.length);
    expect(value('sift_reranker_bytes_total')).toBe(reranked.body.total_bytes);
    if (h.database.dialect === 'postgres') {
      expect(value('sift_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      // The two searches ran on a pipelined connection, answered: none in flight, none sent elsewhere.
      expect(value('sift_search_connections{pool="pipelined",state="total"}')).toBeGreaterThanOrEqual(1);
      expect(value('sift_search_connections{pool="pipelined",state="in_flight"}')).toBe(0);
      expect(value('sift_search_connections{pool="pipelined",state="stalled"}')).toBe(0);
      expect(value('sift_search_connections{pool="filtered",state="waiting"}')).toBe(0);
      expect(value('sift_search_overflow_total')).toBe(0);
    }
  });
});

/** A TCP relay to PostgreSQL that a test can cut, as a network partition or a stopped database would. */
async function relayTo(port: number) {
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as { port: number }).port,
    cut: () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe.runIf(process.env.SIFT_TEST_DIALECT === 'postgres' && process.env.TEST_POSTGRES_URL)('readiness on PostgreSQL', () => {
  test('servers starting together on a new database run each migration once, and all start', async () => {
    const schema = await freshPostgresSchema(process.env.TEST_POSTGRES_URL!);
    const databases = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ dataDir: tmpdir(), databaseUrl: schema.url })));
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(databases[0]!.db);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
    for (const database of databases) expect(await pendingMigrations(database)).toEqual([]);
    await Promise.all(databases.map((database) => database.destroy()));
  });

  test('says 503 when the database is unreachable, while liveness still answers', async () => {
    const schema = await freshPostgresSchema(process.env.TEST_POSTGRES_URL!);
    const target = new URL(schema.url);
    const relay = await relayTo(Number(target.port || 5432));
    target.port = String(relay.port);
    const h = await startHarness({ DATABASE_URL: target.toString() }, { lifecycle: { ownIngestion: () => true, draining: () => false } });
    try {
      expect((await get(h, '/health/ready')).statusCode).toBe(200);
      await relay.cut();
      const ready = await get(h, '/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not ready', checks: { database: 'unreachable' } });
      expect((await get(h, '/health/live')).statusCode).toBe(200);
    } finally {
      // The database went away under its pool, whose ending may fail: the harness is closed all the same.
      await h.close().catch(() => {});
    }
  });
});
