import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import ZeroEntropy from 'zeroentropy';
import { createKeyring } from '../apps/server/src/auth/keyring.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { bootstrap } from '../apps/server/src/domain/bootstrap.ts';
import { freePort } from '../apps/server/test/cluster.ts';
import { writeTinyModel } from '../apps/server/test/fixtures/tiny-model.ts';
import { load, waitForServer } from './quality.ts';
import { cisiDirectory, loadCisi } from './support/cisi.ts';
import { type Dialect, dialectFromArguments, freshSchema } from './support/sift.ts';
import { averagePrecision, mean, ndcgAt } from './support/ir-metrics.ts';

/**
 * What each kind of model costs and brings on CISI (part of `npm run bench -- quality`): a plain
 * server (lexical; SQLite, or with `--postgres` a fresh schema of PostgreSQL with pgvector), then one server per setup: an embedder or a reranker served by a second
 * Sift (the plain server, whose /v1/models/* serve the built-in zembed-1 and zerank-2) or run
 * locally (the tests' tiny models with random weights, through tokenizer, ONNX and pooling).
 * Each loads CISI; every judged query through top-documents: nDCG@10, MAP, ms per document to
 * ingest (upload to indexed, 8 uploads in flight), ms per query beside the same query without the
 * reranker, and the vectors' bytes per document.
 */
const SECRET = 'bench-secret-0123456789abcdef';
const ADMIN_KEY = 'hybrid-bench-admin-key-0123456789';
const RANKING_DEPTH = 1000;
const RERANK_DEPTH = 50;

interface Server {
  child: ChildProcess;
  dataDir: string;
  url: string;
  client: ZeroEntropy;
  apiKey: string;
  /** On PostgreSQL: its schema's URL, and how to drop it. */
  schema: { url: string; drop(): Promise<void> } | null;
}

export async function startServer(env: Record<string, string>, dialect: Dialect = 'sqlite'): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-hybrid-'));
  const port = await freePort();
  const schema = dialect === 'postgres' ? await freshSchema() : null;
  if (schema) env = { ...env, DATABASE_URL: schema.url };
  const setup = await openDatabase({ dataDir, databaseUrl: schema?.url });
  const { apiKey, organizationId } = await bootstrap(setup, createKeyring(SECRET), { email: 'bench@example.com', name: 'Bench', organizationName: 'Bench' });
  await setup.destroy();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, SIFT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SIFT_SECRET: SECRET, SIFT_ADMIN_KEY: ADMIN_KEY, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/v1`;
  await waitForServer(`http://127.0.0.1:${port}/openapi.json`, child);
  // Embedding every snippet of CISI passes the default bytes-a-minute budget: one that never binds.
  const admin = new ZeroEntropy({ apiKey: ADMIN_KEY, baseURL: url, maxRetries: 0 });
  await admin.post('/admin/update-organization', { body: { organization_id: organizationId, override_bpm_fast: 1e12, override_bpm_slow: 1e12 } });
  return { child, dataDir, url, apiKey, schema, client: new ZeroEntropy({ apiKey, baseURL: url, maxRetries: 0 }) };
}

export async function stopServer(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  rmSync(server.dataDir, { recursive: true, force: true });
  await server.schema?.drop();
}

/** Bytes of the vectors in the server's search files (every granularity), or in PostgreSQL's tables. */
async function vectorBytes({ dataDir, schema }: Server): Promise<number> {
  if (schema) {
    const setup = await openDatabase({ dataDir, databaseUrl: schema.url });
    try {
      // A table per collection (migration 023); none without pgvector.
      const { rows: tables } = await sql<{ name: string }>`
        select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname ~ '^search_vectors_[0-9]+$'`.execute(setup.db);
      let bytes = 0;
      for (const { name } of tables) {
        const { rows } = await sql<{ n: string }>`select coalesce(sum(pg_column_size(embedding)), 0) as n from ${sql.table(name)}`.execute(setup.db);
        bytes += Number(rows[0]!.n);
      }
      return bytes;
    } finally {
      await setup.destroy();
    }
  }
  const folder = join(dataDir, 'sift-search');
  let bytes = 0;
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.db'))) {
    const file = new SQLite(join(folder, name), { readonly: true });
    try {
      for (const granularity of ['documents', 'pages', 'coarse', 'fine']) {
        bytes += (file.prepare(`select coalesce(sum(length(vector)), 0) as n from vectors_${granularity}`).get() as { n: number }).n;
      }
    } finally {
      file.close();
    }
  }
  return bytes;
}

interface Setup {
  mode: string;
  /** The server's variables, given the lexical server (a second Sift serving the built-in models) and a folder for model files. */
  env: (provider: Server, models: string) => Record<string, string>;
  /** Asks for the 50 best with the `reranker` option (the cost of a reranker) rather than 1,000 without. */
  reranks: boolean;
}

const SETUPS: Setup[] = [
  { mode: 'hybrid: zembed-1 from a second Sift', reranks: false, env: (provider) => ({ SIFT_EMBEDDING_PROVIDER: 'zeroentropy', SIFT_EMBEDDING_URL: provider.url, SIFT_EMBEDDING_API_KEY: provider.apiKey }) },
  { mode: 'hybrid: tiny local embedding model', reranks: false, env: (_, models) => ({ SIFT_EMBEDDING_PROVIDER: 'local', SIFT_EMBEDDING_MODEL: join(models, 'embedding') }) },
  { mode: `reranker: zerank-2 from a second Sift (top ${RERANK_DEPTH})`, reranks: true, env: (provider) => ({ SIFT_RERANK_PROVIDER: 'zeroentropy', SIFT_RERANK_URL: provider.url, SIFT_RERANK_API_KEY: provider.apiKey }) },
  { mode: `reranker: tiny local cross-encoder (top ${RERANK_DEPTH})`, reranks: true, env: (_, models) => ({ SIFT_RERANK_PROVIDER: 'local', SIFT_RERANK_MODEL: join(models, 'cross-encoder') }) },
];

/** Loads CISI into the server, runs every judged query, and gives the row of the table. */
async function measure(mode: string, server: Server, cisi: ReturnType<typeof loadCisi>, reranks: boolean): Promise<Record<string, string | number>> {
  const documents = cisi.documents.map((d) => ({ path: d.path, text: d.pages.join('\n') }));
  const started = performance.now();
  await load(server.client, 'cisi', documents);
  const ingestMs = (performance.now() - started) / documents.length;
  const ask = (query: string) =>
    server.client.queries.topDocuments({ collection_name: 'cisi', query, ...(reranks ? { k: RERANK_DEPTH, reranker: 'zerank-2' } : { k: RANKING_DEPTH }) });
  for (const query of cisi.queries.slice(0, 5)) await ask(query.text);
  const plainTimes: number[] = [];
  for (const query of reranks ? cisi.queries : []) {
    const queryStarted = performance.now();
    await server.client.queries.topDocuments({ collection_name: 'cisi', query: query.text, k: RERANK_DEPTH });
    plainTimes.push(performance.now() - queryStarted);
  }
  const times: number[] = [];
  const rankings: string[][] = [];
  for (const query of cisi.queries) {
    const queryStarted = performance.now();
    const { results } = await ask(query.text);
    times.push(performance.now() - queryStarted);
    rankings.push(results.map((result) => result.path));
  }
  return {
    mode,
    'nDCG@10': Number(mean(cisi.queries.map((query, i) => ndcgAt(10, rankings[i]!, query.relevant))).toFixed(4)),
    MAP: reranks ? '-' : Number(mean(cisi.queries.map((query, i) => averagePrecision(rankings[i]!, query.relevant))).toFixed(4)),
    'ingest ms/document': Number(ingestMs.toFixed(2)),
    'ms/query': Number(mean(times).toFixed(2)),
    'without reranker': reranks ? Number(mean(plainTimes).toFixed(2)) : '-',
    'vector bytes/document': Math.round((await vectorBytes(server)) / documents.length),
  };
}

export async function runHybridBench(): Promise<void> {
  const cisiDir = cisiDirectory();
  if (!cisiDir) throw new Error('the CISI collection is missing: set SIFT_BENCH_CISI to its folder');
  const cisi = loadCisi(cisiDir);
  const models = mkdtempSync(join(tmpdir(), 'sift-tiny-models-'));
  writeTinyModel(join(models, 'embedding'), 'embedding');
  writeTinyModel(join(models, 'cross-encoder'), 'cross-encoder');
  const dialect = dialectFromArguments();
  const lexical = await startServer({}, dialect);
  try {
    const rows = [await measure('lexical (BM25)', lexical, cisi, false)];
    for (const setup of SETUPS) {
      const server = await startServer(setup.env(lexical, models), dialect);
      try {
        rows.push(await measure(setup.mode, server, cisi, setup.reranks));
      } finally {
        await stopServer(server);
      }
    }
    console.log(`\nModels' cost on CISI (${cisi.documents.length} documents, ${cisi.queries.length} judged queries), ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}; the second Sift is the lexical server`);
    console.table(rows);
    console.log(`ms/query: k = ${RANKING_DEPTH}, or the ${RERANK_DEPTH} best with the reranker option; the tiny models have random weights: their cost is the path's, their nDCG means nothing`);
    console.log('target: hybrid with zembed-1 at most 0.01 below lexical in nDCG@10');
  } finally {
    await stopServer(lexical);
    rmSync(models, { recursive: true, force: true });
  }
}
