import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createKeyring } from '../apps/server/src/auth/keyring.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import type { Database } from '../apps/server/src/db/schema.ts';
import { bootstrap } from '../apps/server/src/domain/bootstrap.ts';
import { type SiftProcess, startServer, startWorker } from '../apps/server/test/cluster.ts';
import { random } from './random.ts';
import { freshSchema } from './support/sift.ts';

/**
 * `npm run bench -- scale`: Sift past one machine, on PostgreSQL (raw files in PostgreSQL too).
 * 1. Ingestion: 20 MB of small documents (2-8 KB) queued through a server, then indexed by 1, 2
 *    and 4 worker processes (one loop each); MB/s from the moment the queue opens to the last
 *    document indexed. A fresh database schema per run.
 * 2. Search: top-snippets requests/s at 50 connections against one server, then against two
 *    (25 connections each, summed), on the indexed 20 MB.
 * Every process runs on this machine, PostgreSQL included: the figures say where one machine's
 * cores run out, not how far separate machines go.
 */
const SECRET = 'bench-secret-0123456789abcdef';
const TOTAL_BYTES = 20 * 1024 * 1024;
const WORKER_COUNTS = [1, 2, 4];
const SEARCH_SECONDS = 10;

const baseUrl = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A vocabulary with a long tail, so documents share common words and differ in rare ones. */
function corpus(seed: number): { path: string; text: string }[] {
  const next = random(seed);
  const vocabulary = Array.from({ length: 4000 }, (_, i) => {
    let word = '';
    for (let n = 3 + (i % 7); n > 0; n--) word += String.fromCharCode(97 + Math.floor(next() * 26));
    return word;
  });
  const word = () => vocabulary[Math.floor(vocabulary.length * next() ** 2)]!;
  const documents: { path: string; text: string }[] = [];
  for (let total = 0; total < TOTAL_BYTES; ) {
    const target = 2048 + Math.floor(next() * 6144);
    let text = '';
    while (text.length < target) text += `${Array.from({ length: 12 }, word).join(' ')}. `;
    documents.push({ path: `doc-${documents.length}.txt`, text });
    total += Buffer.byteLength(text);
  }
  return documents;
}

async function post(server: SiftProcess, path: string, body: unknown, key: string): Promise<number> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function count(database: Database, where: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await sql<{ count: number }>`select count(*)::int as count from documents where ${where}`.execute(database.db);
  return Number(rows[0]!.count);
}

interface Setup {
  env: Record<string, string>;
  server: SiftProcess;
  database: Database;
  key: string;
  close(): Promise<void>;
}

async function setUp(): Promise<Setup> {
  const schema = await freshSchema(baseUrl);
  const env = { DATABASE_URL: schema.url, SIFT_SECRET: SECRET };
  const server = await startServer(env);
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-bench-scale-'));
  const database = await openDatabase({ dataDir, databaseUrl: schema.url });
  const { apiKey } = await bootstrap(database, createKeyring(SECRET), { email: 'bench@example.com', name: 'Bench', organizationName: 'Bench' });
  return {
    env,
    server,
    database,
    key: apiKey,
    async close() {
      await server.stop();
      await database.destroy();
      await schema.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Queues the corpus through the server (8 uploads at a time), held back from workers until measured. */
async function queue(setup: Setup, documents: { path: string; text: string }[]): Promise<number> {
  await post(setup.server, '/v1/collections/add-collection', { collection_name: 'bench' }, setup.key);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < documents.length) {
        const document = documents[next++]!;
        const status = await post(setup.server, '/v1/documents/add-document', { collection_name: 'bench', path: document.path, content: { type: 'text', text: document.text } }, setup.key);
        if (status !== 201) throw new Error(`upload answered ${status}`);
      }
    }),
  );
  // Held under a lease no worker owns, so workers start on a full queue at one moment.
  await sql`update documents set index_status = 'parsing', lease_owner = 'bench-hold', lease_expires_at = ${Number.MAX_SAFE_INTEGER}`.execute(setup.database.db);
  const { rows } = await sql<{ bytes: number }>`select coalesce(sum(size), 0)::bigint as bytes from documents`.execute(setup.database.db);
  return Number(rows[0]!.bytes);
}

async function ingest(setup: Setup, workers: number, bytes: number, total: number) {
  const started = await Promise.all(Array.from({ length: workers }, () => startWorker({ ...setup.env, SIFT_INGEST_WORKERS: '1' })));
  const t0 = performance.now();
  await sql`update documents set index_status = 'not_parsed', lease_owner = null, lease_expires_at = null, attempts = 0 where lease_owner = 'bench-hold'`.execute(setup.database.db);
  while ((await count(setup.database, sql`index_status in ('indexed', 'parsing_failed', 'indexing_failed')`)) < total) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - t0) / 1000;
  const failed = await count(setup.database, sql`index_status in ('parsing_failed', 'indexing_failed')`);
  await Promise.all(started.map((worker) => worker.stop()));
  return { workers, documents: total, megabytes: bytes / 1e6, seconds, mbPerSecond: bytes / 1e6 / seconds, failed };
}

async function search(servers: SiftProcess[], key: string, documents: { text: string }[]) {
  const next = random(7);
  const queries = Array.from({ length: 64 }, () => {
    const words = documents[Math.floor(next() * documents.length)]!.text.split(/\W+/).filter(Boolean);
    return JSON.stringify({ collection_name: 'bench', query: `${words[Math.floor(next() * words.length)]} ${words[Math.floor(next() * words.length)]}`, k: 10 });
  });
  const connections = Math.floor(50 / servers.length);
  const results = await Promise.all(
    servers.map((server, s) => {
      let i = s;
      return autocannon({
        url: `${server.url}/v1/queries/top-snippets`,
        connections,
        duration: SEARCH_SECONDS,
        requests: [
          {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: queries[i++ % queries.length] }),
          },
        ],
      });
    }),
  );
  return {
    servers: servers.length,
    connections: connections * servers.length,
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
  };
}

export async function runScaleBench() {
  const documents = corpus(42);
  const ingestion = [];
  let last: Setup | null = null;
  for (const workers of WORKER_COUNTS) {
    await last?.close();
    last = await setUp();
    const bytes = await queue(last, documents);
    ingestion.push(await ingest(last, workers, bytes, documents.length));
    console.log(`ingestion, ${workers} worker(s): ${ingestion.at(-1)!.mbPerSecond.toFixed(2)} MB/s`);
  }
  const setup = last!;
  const second = await startServer(setup.env);
  const searching = [await search([setup.server], setup.key, documents), await search([setup.server, second], setup.key, documents)];
  await second.stop();
  await setup.close();

  console.log(`\nIngestion on PostgreSQL: ${documents.length} documents, ${(ingestion[0]!.megabytes).toFixed(1)} MB of 2-8 KB each`);
  console.table(ingestion.map((row) => ({ workers: row.workers, seconds: row.seconds.toFixed(1), 'MB/s': row.mbPerSecond.toFixed(2), failed: row.failed })));
  console.log(`Search (top-snippets, k=10) at 50 connections, ${SEARCH_SECONDS} s each`);
  console.table(searching.map((row) => ({ servers: row.servers, connections: row.connections, 'req/s': row.requestsPerSecond.toFixed(0), 'p50 ms': row.p50, 'p99 ms': row.p99, 'non-2xx/errors': row.non2xx })));
  return { ingestion, search: searching };
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await runScaleBench();
