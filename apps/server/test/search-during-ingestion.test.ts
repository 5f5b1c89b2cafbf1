import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type SiftProcess, startServer } from './cluster.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * A real server process (ingestion threads, search reader threads) indexes a 7 MB document
 * while a client keeps searching another collection: every search answers, with its results,
 * while the document is parsed and indexed.
 */
let h: Harness;
let server: SiftProcess | null = null;
let base = '';
let apiKey = '';
beforeAll(async () => {
  h = await startHarness();
  ({ apiKey } = await bootstrap(h.database, h.keyring, { email: 'load@example.com', name: 'Load', organizationName: 'Load' }));
  // The server shares the harness's data folder or database, where the key was made; it ingests itself.
  server = await startServer({ SIFT_DATA_DIR: h.config.dataDir, SIFT_SECRET: h.config.secret, SIFT_INGEST_WORKERS: '1', LOG_LEVEL: 'error', DATABASE_URL: h.config.databaseUrl ?? '' });
  base = server.url;
});
afterAll(async () => {
  await server?.stop();
  await h.close();
});

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${base}/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
};

test('searches keep answering while a large document is being indexed', { timeout: 240_000 }, async () => {
  await post('/collections/add-collection', { collection_name: 'small' });
  await post('/collections/add-collection', { collection_name: 'large' });
  for (let i = 0; i < 20; i++) await post('/documents/add-document', { collection_name: 'small', path: `note-${i}`, content: { type: 'text', text: `Note ${i}: the ferry left the harbour at dawn.` } });
  for (;;) {
    if ((await post('/status/get-status', { collection_name: 'small' })).body.num_indexed_documents === 20) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const words = ['tide', 'gull', 'anchor', 'rope', 'sail', 'mast', 'keel', 'hull', 'deck', 'buoy', 'quay', 'pier'];
  const text = Array.from({ length: 1_500_000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
  expect((await post('/documents/add-document', { collection_name: 'large', path: 'large.txt', content: { type: 'text', text } })).status).toBe(201);

  let answered = 0;
  // Any search that did not find the five notes, as it answered: what went wrong shows in the failure.
  const short: unknown[] = [];
  for (;;) {
    const status = (await post('/documents/get-document-info', { collection_name: 'large', path: 'large.txt' })).body.document.index_status;
    if (status === 'indexed' || status.endsWith('failed')) break;
    const search = await post('/queries/top-snippets', { collection_name: 'small', query: 'ferry harbour', k: 5 });
    expect(search.status).toBe(200);
    answered++;
    if (search.body.results.length !== 5) short.push({ search: answered, ...search.body });
  }
  expect((await post('/documents/get-document-info', { collection_name: 'large', path: 'large.txt' })).body.document.index_status).toBe('indexed');
  expect(answered).toBeGreaterThan(3);
  expect(short).toEqual([]);
});
