import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { startIngestThread } from '../src/engine/ingest/thread.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * The server's ingestion threads run below the HTTP and search threads' CPU priority
 * (SIFT_INGEST_NICE), so searches keep their pace while documents are ingested; they still
 * index everything queued.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
const threadNiceness = () =>
  readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));

test('an ingestion thread runs at the configured niceness, this thread at its own, and ingests what is queued with the parse bounds it was given', async () => {
  const { apiKey } = await bootstrap(h.database, h.keyring, { email: 'nice@example.com', name: 'Nice', organizationName: 'Nice' });
  await h.call('/v1/collections/add-collection', { collection_name: 'nice' }, apiKey);
  await h.call('/v1/documents/add-document', { collection_name: 'nice', path: 'a.txt', content: { type: 'text', text: 'Oystercatchers probe the mud for worms.' } }, apiKey);
  const image = readFileSync(new URL('fixtures/ingest/words.png', import.meta.url)).toString('base64');
  await h.call('/v1/documents/add-document', { collection_name: 'nice', path: 'words.png', content: { type: 'auto', base64_data: image } }, apiKey);
  const before = threadNiceness();
  expect(before).not.toContain(7);
  const thread = startIngestThread({
    entry: new URL('../src/ingest-thread.ts', import.meta.url),
    engine: h.engine,
    dataDir: h.config.dataDir,
    databaseUrl: h.config.databaseUrl,
    storage: h.config.storage,
    models: h.config.models,
    parseLimits: { timeoutMs: 1, memoryMb: 768 },
    concurrency: 1,
    checkpoints: false,
    nice: 7,
    log: { info: () => {}, error: () => {} },
  });
  try {
    let status = { num_indexed_documents: 0, num_failed_documents: 0 };
    // A new thread loads its TypeScript first: seconds on a busy machine (a whole suite at once).
    for (const deadline = Date.now() + 60_000; status.num_indexed_documents + status.num_failed_documents < 2 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await h.call('/v1/status/get-status', { collection_name: 'nice' }, apiKey)).body;
    }
    expect(status).toMatchObject({ num_indexed_documents: 1, num_failed_documents: 1 });
    const failed = await h.call('/v1/documents/get-document-info', { collection_name: 'nice', path: 'words.png' }, apiKey);
    expect(failed.body.document).toMatchObject({ index_status: 'parsing_failed', failure_reason: 'Reading the PNG image took longer than 0.001 seconds.' });
    expect(threadNiceness()).toContain(7);
    expect(threadNiceness()[0]).toBe(before[0]); // the main thread keeps its priority
  } finally {
    await thread.stop();
  }
}, 90_000);
