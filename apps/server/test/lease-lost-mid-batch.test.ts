import { beforeAll, expect, test } from 'vitest';
import type { IngestWorkers } from '../src/engine/engine.ts';
import { fileHarness } from './support/file-harness.ts';

/**
 * A worker holding a batch writes only the documents still leased to it. Here one of its
 * documents is overwritten while the batch waits on another's parse, and a second worker indexes
 * the new version; the first then writes the rest of its batch without that document, so the new
 * version stays the one searched (both dialects).
 */
const t = fileHarness();
beforeAll(async () => {
  await t.f.workers.stop();
  await t.h.call('/v1/collections/add-collection', { collection_name: 'handed-on' }, t.f.keyA);
});

const upload = (path: string, text: string, overwrite = false) =>
  t.h.call(
    '/v1/documents/add-document',
    { collection_name: 'handed-on', path, overwrite, content: { type: 'auto', base64_data: Buffer.from(text).toString('base64') } },
    t.f.keyA,
  );
const topPaths = async (query: string) =>
  ((await t.h.call('/v1/queries/top-documents', { collection_name: 'handed-on', query, k: 5 }, t.f.keyA)).body.results as { path: string }[]).map((hit) => hit.path);
const indexStatus = async (path: string) =>
  (await t.h.call('/v1/documents/get-document-info', { collection_name: 'handed-on', path }, t.f.keyA)).body.document.index_status;

test('a document overwritten and indexed by another worker mid-batch is not written again by the first', async () => {
  // The first worker's parse of the slow document waits for the gate.
  let reachedGate!: () => void;
  const atGate = new Promise<void>((resolve) => (reachedGate = resolve));
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const gatedParser = {
    async parse(bytes: Buffer, hint?: { filename?: string; signal?: AbortSignal }) {
      if (hint?.filename === 'slow.txt') {
        reachedGate();
        await gate;
      }
      return t.h.engine.parser.parse(bytes, hint);
    },
  };

  expect((await upload('changing.txt', 'The first version speaks of walruses.')).status).toBe(201);
  expect((await upload('slow.txt', 'Slow document about lighthouses.')).status).toBe(201);
  const first: IngestWorkers = await t.h.engine.startIngestion({ parser: gatedParser, concurrency: 1, idlePollMs: 50 });
  let second: IngestWorkers | undefined;
  try {
    // The first worker holds both, has parsed changing.txt and waits on slow.txt.
    await atGate;
    expect((await upload('changing.txt', 'The second version speaks of narwhals.', true)).status).toBe(200);
    second = await t.h.engine.startIngestion({ concurrency: 1, idlePollMs: 50 });
    await expect.poll(() => indexStatus('changing.txt'), { timeout: 20_000, interval: 50 }).toBe('indexed');
    await second.stop();

    openGate();
    await expect.poll(() => indexStatus('slow.txt'), { timeout: 20_000, interval: 50 }).toBe('indexed');
    await first.idle();
  } finally {
    openGate();
    await first.stop();
    await second?.stop();
  }
  expect(await topPaths('narwhals')).toEqual(['changing.txt']);
  expect(await topPaths('walruses')).toEqual([]);
  expect(await topPaths('lighthouses')).toEqual(['slow.txt']);
  expect(await indexStatus('changing.txt')).toBe('indexed');
});
