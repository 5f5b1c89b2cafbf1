import { afterAll, beforeAll, expect, test } from 'vitest';
import { type IngestWorkers, startIngestWorkers } from '../src/engine/ingest/worker.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** Overwriting an indexed document keeps its previous version searchable until the new one is indexed. */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
let workers: IngestWorkers | null = null;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
});
afterAll(async () => {
  await workers?.stop();
  await h.close();
});

test('an overwritten document answers searches with its previous version until the new one is indexed', async () => {
  const add = (text: string, overwrite: boolean) =>
    h.call('/v1/documents/add-document', { collection_name: 'v', path: 'log.txt', content: { type: 'text', text }, overwrite }, f.keyA);
  const search = async (query: string) =>
    (await h.call('/v1/queries/top-documents', { collection_name: 'v', query, k: 5 }, f.keyA)).body.results.map((hit: { path: string }) => hit.path);
  await h.call('/v1/collections/add-collection', { collection_name: 'v' }, f.keyA);
  expect((await add('The lighthouse keeper logged the storm.', false)).status).toBe(201);
  await f.workers.idle();
  await f.workers.stop(); // the new version waits in the queue

  expect((await add('The windmill miller ground the wheat.', true)).status).toBe(200);
  const info = await h.call('/v1/documents/get-document-info', { collection_name: 'v', path: 'log.txt' }, f.keyA);
  expect(info.body.document.index_status).toBe('not_parsed');
  expect(await search('lighthouse')).toEqual(['log.txt']);

  workers = await startIngestWorkers({ database: h.database, files: h.files, concurrency: 1, idlePollMs: 50 });
  await workers.idle();
  expect(await search('windmill')).toEqual(['log.txt']);
  expect(await search('lighthouse')).toEqual([]);
  const indexed = await h.call('/v1/documents/get-document-info', { collection_name: 'v', path: 'log.txt', include_content: true }, f.keyA);
  expect(indexed.body.document).toMatchObject({ index_status: 'indexed', content: 'The windmill miller ground the wheat.' });
});
