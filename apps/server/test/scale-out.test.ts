import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createKeyring } from '../src/auth/keyring.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import type { Database } from '../src/db/schema.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type SiftProcess, startServer, startWorker } from './cluster.ts';
import { startObjectStore } from './support/object-store.ts';
import { freshPostgresSchema } from './postgres-schema.ts';

/**
 * Past one machine, as an operator runs it: two server processes and one worker process, each
 * with a data folder of its own (no shared disk), one PostgreSQL database, one SIFT_SECRET, and
 * raw files in an S3-compatible store (a real S3-protocol server) or in PostgreSQL.
 * PostgreSQL only (TEST_POSTGRES_URL, SIFT_TEST_DIALECT=postgres: scripts/test-postgres.mjs).
 */
const onPostgres = process.env.SIFT_TEST_DIALECT === 'postgres' && Boolean(process.env.TEST_POSTGRES_URL);
const SECRET = 'scale-out-secret-0123456789abcdef';
const LONG = 180_000;

async function post(server: SiftProcess, path: string, body: unknown, key: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The cluster: servers A and B started together on the new database, a worker, and the test's own handle. */
async function startCluster(storage: 's3' | 'postgres') {
  const schema = await freshPostgresSchema(process.env.TEST_POSTGRES_URL!);
  const s3 = storage === 's3' ? await startObjectStore() : null;
  const env = { DATABASE_URL: schema.url, SIFT_SECRET: SECRET, ...(s3?.env ?? {}) };
  const [a, b] = await Promise.all([startServer(env), startServer(env)]);
  const worker = await startWorker(env);
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-operator-'));
  const database = await openDatabase({ dataDir, databaseUrl: schema.url });
  const keyring = createKeyring(SECRET);
  const organization = (name: string) => bootstrap(database, keyring, { email: `${name}@example.com`, name, organizationName: name });
  return {
    env,
    a,
    b,
    worker,
    database,
    organization,
    async stop() {
      await Promise.all([a.stop(), b.stop(), this.worker.stop()]);
      await database.destroy();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
type Cluster = Awaited<ReturnType<typeof startCluster>>;

const documentsIn = (database: Database, status?: string) =>
  database.db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .$if(Boolean(status), (query) => query.where('index_status', '=', status as never))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.count));

const claimed = (database: Database) =>
  database.db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('lease_owner', 'is not', null)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.count));

/** Upload through one server, indexed by the worker, then search, list and fetch through the other. */
async function uploadHereReadThere(cluster: Cluster, key: string) {
  const { a, b } = cluster;
  expect((await post(a, '/v1/collections/add-collection', { collection_name: 'shared' }, key)).status).toBe(201);
  const texts = Array.from({ length: 40 }, (_, i) => `Document ${i} of the scale-out suite: ${i % 2 ? 'a heron stands in the reeds' : 'the tide comes in over the flats'}.`);
  for (const [i, text] of texts.entries()) {
    const added = await post(a, '/v1/documents/add-document', { collection_name: 'shared', path: `doc-${String(i).padStart(2, '0')}.txt`, content: { type: 'text', text } }, key);
    expect(added.status).toBe(201);
  }
  await until('the worker to index every document', async () => {
    const status = await post(b, '/v1/status/get-status', { collection_name: 'shared' }, key);
    expect(status.body.num_failed_documents).toBe(0);
    return status.body.num_indexed_documents === 40;
  });
  const hits = await post(b, '/v1/queries/top-documents', { collection_name: 'shared', query: 'heron reeds', k: 3 }, key);
  expect(hits.status).toBe(200);
  expect(hits.body.results).toHaveLength(3);
  expect(hits.body.results.every((hit: { path: string }) => Number(hit.path.slice(4, 6)) % 2 === 1)).toBe(true);
  const list = await post(b, '/v1/documents/get-document-info-list', { collection_name: 'shared', limit: 100 }, key);
  expect(list.body.documents).toHaveLength(40);
  // The file link minted by B, and one minted by A, both open on B: the raw file is not on A's disk only.
  const infoB = await post(b, '/v1/documents/get-document-info', { collection_name: 'shared', path: 'doc-07.txt' }, key);
  const infoA = await post(a, '/v1/documents/get-document-info', { collection_name: 'shared', path: 'doc-07.txt' }, key);
  for (const link of [infoB.body.document.file_url, infoA.body.document.file_url.replace(a.url, b.url)]) {
    const file = await fetch(link);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(texts[7]);
  }
  const pages = await post(b, '/v1/documents/get-page-info', { collection_name: 'shared', path: 'doc-07.txt', page_index: 0, include_content: true }, key);
  expect(pages.status).toBe(200);
  expect(pages.body.page.content).toBe(texts[7]);
}

describe.runIf(onPostgres)('scale-out with an S3-compatible object store', () => {
  let cluster: Cluster;
  let key: string;
  beforeAll(async () => {
    cluster = await startCluster('s3');
    key = (await cluster.organization('operator')).apiKey;
  }, LONG);
  afterAll(() => cluster?.stop(), LONG);

  test('both servers started together on a new database: each migration ran once', async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(cluster.database.db);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
  });

  test('a document uploaded through one server is indexed by the worker, and searched, listed and fetched through the other', async () => {
    await uploadHereReadThere(cluster, key);
  }, LONG);

  test('probes say ready on both servers (the worker serves the queue), and metrics answer', async () => {
    for (const server of [cluster.a, cluster.b]) {
      const ready = await fetch(`${server.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', object_store: 'ok' } });
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain('sift_queue_documents{status="indexed"}');
      expect(metrics).toContain('sift_db_pool_connections{state="total"}');
    }
  });

  test('the reranker byte budget holds across both servers', async () => {
    const rerankKey = (await cluster.organization('reranking')).apiKey;
    const document = 'x'.repeat(20_000);
    let admitted = 0;
    let refused = 0;
    let requestBytes = 0;
    const calls = Array.from({ length: 160 }, (_, i) => i);
    // Eight at a time, alternating servers, as a client behind a load balancer would.
    for (let start = 0; start < calls.length; start += 8) {
      const results = await Promise.all(
        calls.slice(start, start + 8).map((i) => post(i % 2 ? cluster.a : cluster.b, '/v1/models/rerank', { model: 'zerank-1', query: 'query', documents: [document] }, rerankKey)),
      );
      for (const result of results) {
        if (result.status === 200) {
          admitted += result.body.total_bytes;
          requestBytes = result.body.total_bytes;
        } else {
          expect(result.status).toBe(429);
          expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect(admitted).toBeLessThanOrEqual(2_000_000);
    expect(admitted).toBeGreaterThan(2_000_000 - requestBytes); // the budget is used, not lost
  }, LONG);

  test('SIGTERM of a server during uploads: every acknowledged document ends indexed, nothing stays claimed', async () => {
    const { a, b, database } = cluster;
    await post(b, '/v1/collections/add-collection', { collection_name: 'sigterm' }, key);
    const acknowledged: string[] = [];
    let sent = 0;
    let terminated: Promise<number | null> | null = null;
    const uploader = async () => {
      while (sent < 200) {
        const path = `upload-${sent++}.txt`;
        try {
          const added = await post(a, '/v1/documents/add-document', { collection_name: 'sigterm', path, content: { type: 'text', text: `Upload ${path} during a rolling restart.` } }, key);
          if (added.status === 201) acknowledged.push(path);
        } catch {
          // refused connection: the server is gone, the client would retry elsewhere
        }
        if (acknowledged.length === 30 && !terminated) {
          // Queries just before the signal: their usage is buffered in A's memory until flushed.
          for (let q = 0; q < 5; q++) await post(a, '/v1/queries/top-documents', { collection_name: 'sigterm', query: 'rolling restart', k: 1 }, key);
          terminated = a.stop('SIGTERM');
        }
      }
    };
    await Promise.all([uploader(), uploader(), uploader(), uploader()]);
    expect(await terminated).toBe(0); // drained and exited by itself, not cut off
    const usage = await database.db
      .selectFrom('query_usage')
      .select((eb) => eb.fn.sum<number>('event_count').as('count'))
      .where('collection_name', '=', 'sigterm')
      .executeTakeFirstOrThrow();
    expect(Number(usage.count)).toBe(5); // flushed on the way out
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    await until('every acknowledged document to be indexed', async () => {
      const list = await post(b, '/v1/documents/get-document-info-list', { collection_name: 'sigterm', limit: 1024 }, key);
      const indexed = new Set(list.body.documents.filter((d: { index_status: string }) => d.index_status === 'indexed').map((d: { path: string }) => d.path));
      return acknowledged.every((path) => indexed.has(path));
    });
    expect(await claimed(database)).toBe(0);
  }, LONG);

  test('SIGTERM of a busy worker hands its claimed documents back at once; another worker finishes them', async () => {
    const { b, database } = cluster;
    await post(b, '/v1/collections/add-collection', { collection_name: 'handback' }, key);
    const before = await documentsIn(database, 'indexed');
    const text = 'Tidal flats and herons, page after page. '.repeat(150); // ~6 KB
    await Promise.all(
      Array.from({ length: 4 }, (_, lane) =>
        (async () => {
          for (let i = lane; i < 400; i += 4) await post(b, '/v1/documents/add-document', { collection_name: 'handback', path: `bulk-${i}.txt`, content: { type: 'text', text: `${i} ${text}` } }, key);
        })(),
      ),
    );
    await until('the worker to start on them', async () => (await documentsIn(database, 'indexed')) > before);
    expect(await cluster.worker.stop('SIGTERM')).toBe(0);
    // Right after the exit, not a lease timeout later: nothing is held by the stopped worker.
    expect(await claimed(database)).toBe(0);
    expect(await documentsIn(database, 'parsing')).toBe(0);
    expect(await documentsIn(database, 'indexing')).toBe(0);
    cluster.worker = await startWorker(cluster.env);
    await until('the new worker to index the rest', async () => {
      const status = await post(b, '/v1/status/get-status', { collection_name: 'handback' }, key);
      return status.body.num_indexed_documents === 400;
    });
    expect(await claimed(database)).toBe(0);
  }, LONG);
});

describe.runIf(onPostgres)('scale-out with raw files in PostgreSQL (no object store)', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster('postgres');
  }, LONG);
  afterAll(() => cluster?.stop(), LONG);

  test('a document uploaded through one server is indexed by the worker, and searched, listed and fetched through the other', async () => {
    await uploadHereReadThere(cluster, (await cluster.organization('operator')).apiKey);
  }, LONG);
});
