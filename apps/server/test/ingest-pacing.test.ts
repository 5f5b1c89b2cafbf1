import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { startIngestWorkers } from '../src/engine/ingest/worker.ts';
import { searchesAnswered } from '../src/engine/search-activity.ts';
import { type Harness, startHarness } from './harness.ts';

// Searches answered are counted where the ingestion loops see them (search-activity.ts); with
// PostgreSQL a loop pauses after a batch during which searches were answered. Ingestion still
// indexes everything while searches go on.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

test('every search answered is counted, and documents are all indexed while searches go on', async () => {
  const { apiKey } = await bootstrap(h.database, h.keyring, { email: 'pace@example.com', name: 'Pace', organizationName: 'Pace' });
  await h.call('/v1/collections/add-collection', { collection_name: 'paced' }, apiKey);
  const search = () => h.call('/v1/queries/top-snippets', { collection_name: 'paced', query: 'heron', k: 3 }, apiKey);
  const before = Atomics.load(searchesAnswered, 0);
  for (let i = 0; i < 3; i++) expect((await search()).status).toBe(200);
  expect(Atomics.load(searchesAnswered, 0) - before).toBe(3);

  // More documents than one batch claims (32), searched for all along.
  for (let i = 0; i < 80; i++) {
    await h.call('/v1/documents/add-document', { collection_name: 'paced', path: `heron-${i}.txt`, content: { type: 'text', text: `Heron ${i} waits in the shallows.` } }, apiKey);
  }
  const workers = await startIngestWorkers({ database: h.database, files: h.files, concurrency: 1, idlePollMs: 50, searchesAnswered });
  let searching = true;
  const searches = (async () => {
    while (searching) await search();
  })();
  try {
    await workers.idle();
    expect((await h.call('/v1/status/get-status', { collection_name: 'paced' }, apiKey)).body).toMatchObject({ num_documents: 80, num_indexed_documents: 80 });
  } finally {
    searching = false;
    await searches;
    await workers.stop();
  }
  const found = await h.call('/v1/queries/top-snippets', { collection_name: 'paced', query: 'heron 79', k: 1 }, apiKey);
  expect(found.body.results[0].path).toBe('heron-79.txt');
}, 60_000);
