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
import { load, waitForServer } from './quality.ts';
import { cisiDirectory, loadCisi } from './support/cisi.ts';
import { type Dialect, dialectFromArguments, freshSchema } from './support/sift.ts';
import { averagePrecision, mean, ndcgAt } from './support/ir-metrics.ts';

/**
 * Lexical against hybrid search on CISI (part of `npm run bench -- quality`): two servers on
 * SQLite (or, with `--postgres`, each on a fresh schema of PostgreSQL with pgvector), the first
 * plain (lexical), the second with SIFT_EMBEDDING_PROVIDER=zeroentropy pointed at the
 * first, whose /v1/models/embed serves the built-in zembed-1. Each loads CISI; every judged query
 * through top-documents (k = 1,000); nDCG@10, MAP, ms per document to ingest (upload to indexed,
 * 8 uploads in flight), ms per query, and the vectors' bytes per document.
 */
const SECRET = 'bench-secret-0123456789abcdef';
const ADMIN_KEY = 'hybrid-bench-admin-key-0123456789';
const RANKING_DEPTH = 1000;

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

/** Bytes of the vectors in the server's search files (every granularity), or in PostgreSQL's table. */
async function vectorBytes({ dataDir, schema }: Server): Promise<number> {
  if (schema) {
    const setup = await openDatabase({ dataDir, databaseUrl: schema.url });
    try {
      const { rows } = await sql<{ n: string }>`select coalesce(sum(pg_column_size(embedding)), 0) as n from search_vectors`.execute(setup.db).catch(() => ({ rows: [{ n: '0' }] }));
      return Number(rows[0]!.n);
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

export async function runHybridBench(): Promise<void> {
  const cisiDir = cisiDirectory();
  if (!cisiDir) throw new Error('the CISI collection is missing: set SIFT_BENCH_CISI to its folder');
  const cisi = loadCisi(cisiDir);
  const documents = cisi.documents.map((d) => ({ path: d.path, text: d.pages.join('\n') }));
  const dialect = dialectFromArguments();
  const lexical = await startServer({}, dialect);
  let hybrid: Server | null = null;
  try {
    hybrid = await startServer({ SIFT_EMBEDDING_PROVIDER: 'zeroentropy', SIFT_EMBEDDING_URL: lexical.url, SIFT_EMBEDDING_API_KEY: lexical.apiKey }, dialect);
    const rows = [];
    for (const [mode, server] of [['lexical (BM25)', lexical], ['hybrid (BM25 + zembed-1, blend)', hybrid]] as const) {
      const started = performance.now();
      await load(server.client, 'cisi', documents);
      const ingestMs = (performance.now() - started) / documents.length;
      for (const query of cisi.queries.slice(0, 5)) await server.client.queries.topDocuments({ collection_name: 'cisi', query: query.text, k: RANKING_DEPTH });
      const times: number[] = [];
      const rankings: string[][] = [];
      for (const query of cisi.queries) {
        const queryStarted = performance.now();
        const { results } = await server.client.queries.topDocuments({ collection_name: 'cisi', query: query.text, k: RANKING_DEPTH });
        times.push(performance.now() - queryStarted);
        rankings.push(results.map((result) => result.path));
      }
      rows.push({
        mode,
        'nDCG@10': Number(mean(cisi.queries.map((query, i) => ndcgAt(10, rankings[i]!, query.relevant))).toFixed(4)),
        MAP: Number(mean(cisi.queries.map((query, i) => averagePrecision(rankings[i]!, query.relevant))).toFixed(4)),
        'ingest ms/document': Number(ingestMs.toFixed(2)),
        'ms/query (k = 1,000)': Number(mean(times).toFixed(2)),
        'vector bytes/document': Math.round((await vectorBytes(server)) / documents.length),
      });
    }
    console.log(`\nLexical vs hybrid on CISI (${documents.length} documents, ${cisi.queries.length} judged queries), ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}, zembed-1 served by a second Sift`);
    console.table(rows);
    console.log('target: hybrid nDCG@10 at most 0.01 below lexical');
  } finally {
    if (hybrid) await stopServer(hybrid);
    await stopServer(lexical);
  }
}
