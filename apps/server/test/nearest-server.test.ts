import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { INDEXED_FROM } from '../src/engine/search/vectors.ts';
import { searchDirectory } from '../src/engine/search/sqlite-file.ts';
import { type SiftProcess, startServer } from './cluster.ts';
import { type Harness, startHarness } from './harness.ts';
import { exactNearest, startEmbeddings } from './support/hashed-embeddings.ts';

/**
 * A real server (`src/main.ts`, two ingestion threads, reader threads for searches) with an
 * embedder ingests more pages than INDEXED_FROM and answers the exact top 10 pages. On SQLite its
 * ingestion threads build the hnswlib index and its reader threads load it, so both kinds of
 * worker thread load the native library, which the in-process harness never does (a library that
 * hung in worker threads once passed every harness test); deleting the collection removes it.
 */
const PAGES = 1000;
const DOCUMENTS = Math.ceil(INDEXED_FROM / PAGES) + 1;
const pageText = (document: number, page: number) => `row${document}x${page} delta${(page * 5) % 11} gamma${document}`;
const onSqlite = process.env.SIFT_TEST_DIALECT !== 'postgres';

let embeddings: Awaited<ReturnType<typeof startEmbeddings>>;
let h: Harness;
let server: SiftProcess;
let apiKey: string;
beforeAll(async () => {
  embeddings = await startEmbeddings();
  h = await startHarness();
  ({ apiKey } = await bootstrap(h.database, h.keyring, { email: 'nearest@example.com', name: 'Nearest', organizationName: 'Nearest' }));
  server = await startServer(
    {
      SIFT_SECRET: h.config.secret,
      SIFT_INGEST_WORKERS: '1',
      SIFT_INGEST_THREADS: '2',
      SIFT_EMBEDDING_PROVIDER: 'openai',
      SIFT_EMBEDDING_URL: embeddings.url,
      SIFT_EMBEDDING_MODEL: 'hashed',
      ...(h.config.databaseUrl ? { DATABASE_URL: h.config.databaseUrl } : {}),
    },
    h.config.dataDir,
  );
}, 120_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await h?.close();
  await embeddings?.close();
});

const call = async (path: string, body: unknown) => {
  const response = await fetch(`${server.url}/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { results?: { path: string; page_index: number }[] } };
};
/** The collection's nearest-rows index files, as `granularity.extension`. */
const annFiles = () =>
  readdirSync(searchDirectory(h.database.sqlitePath!))
    .filter((name) => /\.(hnsw|json)$/.test(name))
    .map((name) => name.slice(name.indexOf('.') + 1).replace(/\.[0-9a-f]{12}\./, '.'))
    .sort();
const indexedCount = async () =>
  Number((await h.database.db.selectFrom('documents').select((eb) => eb.fn.countAll().as('n')).where('index_status', '=', 'indexed').executeTakeFirstOrThrow()).n);
async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached: ${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test('ingestion threads index thousands of vectors and reader threads answer the exact top 10 through the index', { timeout: 300_000 }, async () => {
  expect((await call('/collections/add-collection', { collection_name: 'big' })).status).toBe(201);
  for (let document = 0; document < DOCUMENTS; document++) {
    const pages = Array.from({ length: PAGES }, (_, page) => pageText(document, page));
    expect((await call('/documents/add-document', { collection_name: 'big', path: `doc${document}.txt`, content: { type: 'text-pages', pages } })).status).toBe(201);
  }
  await until(async () => (await indexedCount()) === DOCUMENTS, 'every document indexed');
  if (onSqlite) await until(() => annFiles().join() === 'pages.hnsw,pages.json', 'the pages index written');
  const pages = Array.from({ length: DOCUMENTS }, (_, document) => Array.from({ length: PAGES }, (_, page) => ({ path: `doc${document}.txt`, page, text: pageText(document, page) }))).flat();
  for (const query of ['zebra', 'quantum', 'harbour lights']) {
    const exact = exactNearest(query, pages, 10).map((page) => [page.path, page.page]);
    const response = await call('/queries/top-pages', { collection_name: 'big', query, k: 10 });
    expect(response.status).toBe(200);
    expect(response.body.results!.map((result) => [result.path, result.page_index])).toEqual(exact);
  }
  expect(server.child.exitCode).toBeNull();
});

test.runIf(onSqlite)('deleting the collection removes its index files', { timeout: 60_000 }, async () => {
  expect((await call('/collections/delete-collection', { collection_name: 'big' })).status).toBe(200);
  await until(() => annFiles().length === 0, 'the index files removed', 30_000);
});
