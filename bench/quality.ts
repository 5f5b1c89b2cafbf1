import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ZeroEntropy from 'zeroentropy';
import { createKeyring } from '../apps/server/src/auth/keyring.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { bootstrap } from '../apps/server/src/domain/bootstrap.ts';
import { freePort } from '../apps/server/test/cluster.ts';
import { cisiDirectory, loadCisi } from './support/cisi.ts';
import { averagePrecision, mean, ndcgAt } from './support/ir-metrics.ts';
import { textGenerator } from './support/corpus.ts';

/**
 * Ranking quality (`npm run bench -- quality`). A real server process (SQLite) on a temporary data
 * folder, driven through the official `zeroentropy` SDK as a client would:
 * 1. CISI (`../shared/data/cisi`) loaded into a collection; every judged query through
 *    top-documents in each mode; nDCG@10 and MAP (trec_eval conventions, rankings of 1,000) and
 *    ms per query. "+ reranker" asks top-documents for the 50 best with `reranker`, and the
 *    ranking MAP reads is those 50 followed by the mode's own ranks 51 onwards. "/models/rerank"
 *    sends low's top 50, then every document, to that endpoint in one request per query and reads
 *    its order the same way (the built-in model takes its statistics from the request's list).
 * 2. The cost of each mode at 20 MB: the same calls (k = 10) on a generated 20 MB collection.
 */

export interface QualityRow {
  mode: string;
  ndcg10: number;
  map: number;
  /** Mean ms per call on CISI (top-documents: k = 1,000 without reranker, 50 with; or /models/rerank). */
  cisiMs: number;
  /** Mean and median ms per top-documents call (k = 10) on the 20 MB collection. */
  largeMeanMs: number | null;
  largeP50Ms: number | null;
}

const SECRET = 'bench-secret-0123456789abcdef';
const RERANKER = 'zerank-2';
const RERANK_DEPTH = 50;
const RANKING_DEPTH = 1000;

interface Mode {
  name: string;
  latency_mode: 'low' | 'high';
  reranker: boolean;
}
const MODES: Mode[] = [
  { name: 'low (BM25)', latency_mode: 'low', reranker: false },
  { name: `low + reranker (top ${RERANK_DEPTH})`, latency_mode: 'low', reranker: true },
  { name: 'high (BM25 + RM3)', latency_mode: 'high', reranker: false },
  { name: `high + reranker (top ${RERANK_DEPTH})`, latency_mode: 'high', reranker: true },
];

export async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('the server exited');
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('the server did not start');
}

/** Adds documents with 8 requests in flight, then waits until the collection has indexed them all. */
export async function load(client: ZeroEntropy, collection: string, documents: { path: string; text: string }[]): Promise<void> {
  await client.collections.add({ collection_name: collection });
  let cursor = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (cursor < documents.length) {
        const { path, text } = documents[cursor++]!;
        await client.documents.add({ collection_name: collection, path, content: { type: 'text', text } });
      }
    }),
  );
  for (;;) {
    const status = await client.status.getStatus({ collection_name: collection });
    if (status.num_indexed_documents + status.num_failed_documents === documents.length) {
      if (status.num_failed_documents > 0) throw new Error(`${status.num_failed_documents} documents failed`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

/** The benchmark server's admin key (a throwaway server on a temporary folder). */
const ADMIN_KEY = 'quality-bench-admin-key-0123456789';

export async function runQualityBench(options: { largeMegabytes?: number } = {}): Promise<QualityRow[]> {
  const largeMegabytes = options.largeMegabytes ?? Number(process.env.QUALITY_LARGE_MB ?? 20);
  const cisiDir = cisiDirectory();
  if (!cisiDir) throw new Error('the CISI collection is missing: set SIFT_BENCH_CISI to its folder');
  const cisi = loadCisi(cisiDir);
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-quality-'));
  const port = await freePort();
  const setup = await openDatabase({ dataDir });
  const { apiKey, organizationId } = await bootstrap(setup, createKeyring(SECRET), { email: 'bench@example.com', name: 'Bench', organizationName: 'Bench' });
  await setup.destroy();
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, SIFT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SIFT_SECRET: SECRET, SIFT_ADMIN_KEY: ADMIN_KEY, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForServer(`http://127.0.0.1:${port}/openapi.json`, server);
    const client = new ZeroEntropy({ apiKey, baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    // Reranking 76 queries x 50 documents passes the default 2,000,000 bytes a minute: the
    // benchmark measures the model, so its organization gets a budget that never binds.
    const admin = new ZeroEntropy({ apiKey: ADMIN_KEY, baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    await admin.post('/admin/update-organization', { body: { organization_id: organizationId, override_bpm_fast: 1e12, override_bpm_slow: 1e12, override_max_bytes_per_request: 1e9 } });
    await load(client, 'cisi', cisi.documents.map((d) => ({ path: d.path, text: d.pages.join('\n') })));

    const search = (collection: string, query: string, k: number, mode: Mode) =>
      client.queries.topDocuments({ collection_name: collection, query, k, latency_mode: mode.latency_mode, ...(mode.reranker ? { reranker: RERANKER } : {}) });

    // 1. Quality on CISI: one warm-up pass, then the measured one.
    const rows: QualityRow[] = [];
    const rankingsByLatency = new Map<string, string[][]>();
    for (const mode of MODES) {
      const k = mode.reranker ? RERANK_DEPTH : RANKING_DEPTH;
      for (const query of cisi.queries.slice(0, 5)) await search('cisi', query.text, k, mode);
      const times: number[] = [];
      const rankings: string[][] = [];
      for (const query of cisi.queries) {
        const started = performance.now();
        const { results } = await search('cisi', query.text, k, mode);
        times.push(performance.now() - started);
        rankings.push(results.map((result) => result.path));
      }
      if (!mode.reranker) rankingsByLatency.set(mode.latency_mode, rankings);
      const full = mode.reranker
        ? rankings.map((top, i) => [...top, ...rankingsByLatency.get(mode.latency_mode)![i]!.filter((id) => !top.includes(id))])
        : rankings;
      rows.push({
        mode: mode.name,
        ndcg10: mean(cisi.queries.map((query, i) => ndcgAt(10, full[i]!, query.relevant))),
        map: mean(cisi.queries.map((query, i) => averagePrecision(full[i]!, query.relevant))),
        cisiMs: mean(times),
        largeMeanMs: null,
        largeP50Ms: null,
      });
    }

    // 1b. The same reranker id on /models/rerank, over low's candidates: its list is all it knows.
    const textOf = new Map(cisi.documents.map((d) => [d.path, d.pages.join('\n')]));
    const low = rankingsByLatency.get('low')!;
    for (const depth of [RERANK_DEPTH, cisi.documents.length]) {
      const times: number[] = [];
      const full: string[][] = [];
      for (const [i, query] of cisi.queries.entries()) {
        // The whole collection, not only low's 1,000: every document is a candidate.
        const candidates = depth < cisi.documents.length ? low[i]!.slice(0, depth) : [...textOf.keys()];
        const started = performance.now();
        const { results } = await client.models.rerank({ model: RERANKER, query: query.text, documents: candidates.map((path) => textOf.get(path)!) });
        times.push(performance.now() - started);
        full.push([...results.map((result) => candidates[result.index]!), ...low[i]!.slice(candidates.length)]);
      }
      rows.push({
        mode: depth < cisi.documents.length ? `/models/rerank of low's top ${depth}` : `/models/rerank of all ${depth}`,
        ndcg10: mean(cisi.queries.map((query, i) => ndcgAt(10, full[i]!, query.relevant))),
        map: mean(cisi.queries.map((query, i) => averagePrecision(full[i]!, query.relevant))),
        cisiMs: mean(times),
        largeMeanMs: null,
        largeP50Ms: null,
      });
    }

    // 2. Cost at 20 MB: generated documents of about 20 kB, generated queries.
    if (largeMegabytes > 0) {
      const generate = textGenerator(11);
      const documents: { path: string; text: string }[] = [];
      for (let bytes = 0; bytes < largeMegabytes * 1e6; ) {
        const text = generate.text(20_000);
        documents.push({ path: `large/${String(documents.length).padStart(5, '0')}.txt`, text });
        bytes += Buffer.byteLength(text);
      }
      await load(client, 'large', documents);
      const queries = Array.from({ length: 200 }, () => generate.query());
      for (const [index, mode] of MODES.entries()) {
        for (const query of queries.slice(0, 10)) await search('large', query, 10, mode);
        const times: number[] = [];
        for (const query of queries) {
          const started = performance.now();
          await search('large', query, 10, mode);
          times.push(performance.now() - started);
        }
        rows[index]!.largeMeanMs = mean(times);
        rows[index]!.largeP50Ms = percentile(times, 50);
      }
    }

    console.log(`\nRanking quality on CISI (${cisi.documents.length} documents, ${cisi.queries.length} judged queries), SQLite, through the SDK`);
    console.table(
      rows.map((row) => ({
        mode: row.mode,
        'nDCG@10': Number(row.ndcg10.toFixed(4)),
        MAP: Number(row.map.toFixed(4)),
        'CISI ms/query': Number(row.cisiMs.toFixed(2)),
        [`${largeMegabytes} MB ms/query (k = 10)`]: row.largeMeanMs === null ? '-' : Number(row.largeMeanMs.toFixed(2)),
        [`${largeMegabytes} MB p50 ms`]: row.largeP50Ms === null ? '-' : Number(row.largeP50Ms.toFixed(2)),
      })),
    );
    console.log(`targets: low nDCG@10 >= 0.4077, high >= 0.42, + reranker >= its mode; high at most 3x low per query at 20 MB`);
    console.log(`CISI calls: k = ${RANKING_DEPTH} (MAP over those), + reranker: k = ${RERANK_DEPTH} with reranker "${RERANKER}"`);
    // The server inherits this environment: SIFT_RERANK_* measure a configured reranker (docs/models.md).
    console.log(`reranker served by: ${process.env.SIFT_RERANK_PROVIDER ? `${process.env.SIFT_RERANK_PROVIDER} ${process.env.SIFT_RERANK_MODEL ?? process.env.SIFT_RERANK_URL ?? ''}` : 'the built-in reranker'}`);
    return rows;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runQualityBench();
