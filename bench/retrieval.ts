import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { createKeyring } from '../apps/server/src/auth/keyring.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { queryTerms } from '../apps/server/src/db/search/analyzer.ts';
import { attachSearchFile, ftsMatch, ftsTable } from '../apps/server/src/db/search/sqlite-file.ts';
import { bootstrap } from '../apps/server/src/domain/bootstrap.ts';
import { random } from './random.ts';

/**
 * Retrieval benchmark. A real server process (SQLite, its default two ingestion threads) on a
 * temporary data folder; this process is the client. 1. Ingestion: a generated corpus of at least
 * 20 MB sent through /v1/documents/add-document (8 requests in flight), timed until
 * /v1/status/get-status shows every document indexed. 2. Latency of top-snippets, top-pages and
 * top-documents over HTTP with k = 25, one request at a time, against the floor: the same FTS5
 * MATCH, straight on the FTS5 table in this process (read-only connection, prepared statement).
 */

export interface RetrievalBenchResult {
  corpusMegabytes: number;
  documents: number;
  ingestSeconds: number;
  ingestMegabytesPerSecond: number;
  latency: { endpoint: string; p50: number; p99: number; floorP50: number; floorP99: number; ratio: number }[];
  /** p50 of a request refused with 401 before any database work: the HTTP round trip itself. */
  refusedP50: number;
}

const SECRET = 'bench-secret-0123456789abcdef';

const COMMON =
  'the of and to a in is it you that he was for on are with as his they be at one have this from or had by word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find'.split(
    ' ',
  );

/** English function words mixed with a Zipf-like vocabulary of 20,000 made-up content words. */
function textGenerator(next: () => number) {
  const syllables = ['ka', 'ro', 'mi', 'ten', 'sul', 'ar', 've', 'lo', 'dra', 'in', 'qui', 'pe', 'st', 'or', 'na', 'el', 'bu', 'fa', 'gri', 'mon'];
  const vocabulary = Array.from({ length: 20_000 }, (_, i) => {
    let word = '';
    for (let n = i + 7; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
    return word;
  });
  const contentWord = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(1 / (next() * 0.9995 + 0.0005)) - 1)]!;
  const word = () => (next() < 0.45 ? COMMON[Math.floor(next() * COMMON.length)]! : contentWord());
  const text = (chars: number) => {
    const parts: string[] = [];
    let length = 0;
    while (length < chars) {
      const w = next() < 0.07 ? `${word()}.` : word();
      parts.push(w);
      length += w.length + 1;
    }
    return parts.join(' ');
  };
  /** Queries of 2 to 4 mid-frequency content words, sometimes with function words. */
  const query = () => {
    const words = Array.from({ length: 2 + Math.floor(next() * 3) }, () => vocabulary[20 + Math.floor(next() * 3000)]!);
    if (next() < 0.3) words.splice(1, 0, 'the');
    return words.join(' ');
  };
  return { text, query };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
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

export async function runRetrievalBench(options: { megabytes?: number; queries?: number } = {}): Promise<RetrievalBenchResult> {
  const targetBytes = (options.megabytes ?? 21) * 1e6;
  const queryCount = options.queries ?? 300;
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-bench-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;

  // The organization and key first, then the server on the same data folder.
  const setup = await openDatabase({ dataDir });
  const { apiKey } = await bootstrap(setup, createKeyring(SECRET), { email: 'bench@example.com', name: 'Bench', organizationName: 'Bench' });
  await setup.destroy();
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, SIFT_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SIFT_SECRET: SECRET, LOG_LEVEL: 'warn', SIFT_INGEST_WORKERS: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForServer(`${base}/openapi.json`, server);
    // node:http with keep-alive: the leanest standard HTTP client, so the figures are the server's.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const post = (path: string, body: unknown, key: string | null = apiKey) =>
      new Promise<any>((resolve, reject) => { // eslint-disable-line @typescript-eslint/no-explicit-any
        const payload = JSON.stringify(body);
        const request = http.request(
          `${base}/v1${path}`,
          {
            method: 'POST',
            agent,
            headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          },
          (response) => {
            const parts: Buffer[] = [];
            response.on('data', (part: Buffer) => parts.push(part));
            response.on('end', () => {
              const text = Buffer.concat(parts).toString('utf8');
              if ((response.statusCode ?? 500) >= 300) reject(new Error(`${path}: ${response.statusCode} ${text.slice(0, 200)}`));
              else resolve(JSON.parse(text));
            });
          },
        );
        request.on('error', reject);
        request.end(payload);
      });
    await post('/collections/add-collection', { collection_name: 'bench' });

    // 1. Ingestion. Documents of about 20 kB; every other one as four text pages.
    const next = random(7);
    const generate = textGenerator(next);
    const documents: { path: string; content: unknown; bytes: number }[] = [];
    let corpusBytes = 0;
    for (let i = 0; corpusBytes < targetBytes; i++) {
      const pages = Array.from({ length: 4 }, () => generate.text(5000));
      const content = i % 2 === 0 ? { type: 'text', text: pages.join('\n\n') } : { type: 'text-pages', pages };
      const bytes = pages.reduce((total, page) => total + Buffer.byteLength(page), 0);
      documents.push({ path: `docs/${String(i).padStart(5, '0')}.txt`, content, bytes });
      corpusBytes += bytes;
    }
    const started = performance.now();
    let cursor = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (cursor < documents.length) {
          const document = documents[cursor++]!;
          await post('/documents/add-document', { collection_name: 'bench', path: document.path, content: document.content, metadata: { group: `g${cursor % 10}` } });
        }
      }),
    );
    const uploaded = performance.now();
    for (;;) {
      const status = await post('/status/get-status', { collection_name: 'bench' });
      if (status.num_indexed_documents + status.num_failed_documents === documents.length) {
        if (status.num_failed_documents > 0) throw new Error(`${status.num_failed_documents} documents failed`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    const corpusMegabytes = corpusBytes / 1e6;

    // 2. Latency, HTTP against the in-process floor, on the same queries.
    const queries = Array.from({ length: queryCount }, () => generate.query());
    const reader = new SQLite(join(dataDir, 'sift.db'), { readonly: true });
    attachSearchFile(reader, join(dataDir, 'sift.db'));
    const collection = reader.prepare('select id from collections where name = ?').get('bench') as { id: string };
    const match = (query: string) => ftsMatch(queryTerms(query));
    const cases = [
      { endpoint: 'top-snippets (coarse)', path: '/queries/top-snippets', body: (query: string) => ({ collection_name: 'bench', query, k: 25 }), table: ftsTable(collection.id, 'coarse') },
      { endpoint: 'top-snippets (precise)', path: '/queries/top-snippets', body: (query: string) => ({ collection_name: 'bench', query, k: 25, precise_responses: true }), table: ftsTable(collection.id, 'fine') },
      { endpoint: 'top-pages', path: '/queries/top-pages', body: (query: string) => ({ collection_name: 'bench', query, k: 25 }), table: ftsTable(collection.id, 'pages') },
      { endpoint: 'top-documents', path: '/queries/top-documents', body: (query: string) => ({ collection_name: 'bench', query, k: 25 }), table: ftsTable(collection.id, 'documents') },
    ];
    // The same server's fixed cost of one HTTP round trip, for reading the ratios: a request
    // refused before any database work (no API key, 401) goes through the whole HTTP stack.
    const refused: number[] = [];
    for (let i = 0; i < queryCount + 20; i++) {
      const t = performance.now();
      await post('/queries/top-documents', { collection_name: 'bench', query: queries[i % queries.length], k: 25 }, null).catch(() => {});
      if (i >= 20) refused.push(performance.now() - t);
    }
    const latency: RetrievalBenchResult['latency'] = [];
    for (const item of cases) {
      const floorStatement = reader.prepare(`select rowid, rank from search."${item.table}" where "${item.table}" match ? order by rank limit 25`);
      for (const query of queries.slice(0, 20)) {
        await post(item.path, item.body(query)); // warm-up: JIT, page cache
        floorStatement.all(match(query));
      }
      const http: number[] = [];
      const floor: number[] = [];
      for (const query of queries) {
        let t = performance.now();
        await post(item.path, item.body(query));
        http.push(performance.now() - t);
        t = performance.now();
        floorStatement.all(match(query));
        floor.push(performance.now() - t);
      }
      const p50 = percentile(http, 50);
      const floorP50 = percentile(floor, 50);
      latency.push({ endpoint: item.endpoint, p50, p99: percentile(http, 99), floorP50, floorP99: percentile(floor, 99), ratio: p50 / floorP50 });
    }
    reader.close();
    agent.destroy();

    const result: RetrievalBenchResult = {
      corpusMegabytes,
      documents: documents.length,
      ingestSeconds,
      ingestMegabytesPerSecond: corpusMegabytes / ingestSeconds,
      latency,
      refusedP50: percentile(refused, 50),
    };
    console.log(`\nRetrieval (SQLite FTS5, server process with its 2 ingestion threads, client in this process)`);
    console.table([
      {
        corpus: `${corpusMegabytes.toFixed(1)} MB, ${documents.length} docs`,
        'upload s': Number(((uploaded - started) / 1000).toFixed(2)),
        'until indexed s': Number(ingestSeconds.toFixed(2)),
        'MB/s': Number(result.ingestMegabytesPerSecond.toFixed(2)),
        target: '>= 5 MB/s',
      },
    ]);
    console.table(
      latency.map((row) => ({
        'endpoint (k = 25)': row.endpoint,
        'HTTP p50 ms': Number(row.p50.toFixed(2)),
        'HTTP p99 ms': Number(row.p99.toFixed(2)),
        'floor p50 ms': Number(row.floorP50.toFixed(2)),
        'floor p99 ms': Number(row.floorP99.toFixed(2)),
        'p50 ratio': Number(row.ratio.toFixed(2)),
      })),
    );
    console.log(`queries: ${queryCount} per endpoint, one at a time; targets: top-snippets p50 <= 15 ms, HTTP/floor ratio <= 2`);
    console.log(`fixed HTTP cost of this server (a request refused with 401 before any database work): p50 ${result.refusedP50.toFixed(2)} ms`);
    return result;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runRetrievalBench();
