import { beforeAll, expect, test } from 'vitest';
import { fileHarness } from './support/file-harness.ts';

/**
 * A parse is told to stop (its AbortSignal) when its document's lease is lost, the document
 * deleted meanwhile, or when the worker stops past its grace. The parser here never finishes by
 * itself: it ends only when told to.
 */
const signals: AbortSignal[] = [];
const parser = {
  parse: (_bytes: Buffer, hint?: { signal?: AbortSignal }) =>
    new Promise<never>((_resolve, reject) => {
      signals.push(hint!.signal!);
      hint!.signal!.addEventListener('abort', () => reject(new Error('parse stopped')));
    }),
};

const t = fileHarness();
beforeAll(async () => {
  await t.f.workers.stop();
  await t.h.call('/v1/collections/add-collection', { collection_name: 'stopped' }, t.f.keyA);
});

const upload = (path: string) =>
  t.h.call('/v1/documents/add-document', { collection_name: 'stopped', path, content: { type: 'auto', base64_data: Buffer.from('a file that never parses').toString('base64') } }, t.f.keyA);
const until = async (condition: () => boolean) => {
  for (const deadline = Date.now() + 20_000; !condition() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(condition()).toBe(true);
};

test('deleting a document stops its parse', async () => {
  const workers = await t.h.engine.startIngestion({ parser, concurrency: 1, idlePollMs: 50, leases: { leaseMs: 600 } });
  try {
    expect((await upload('deleted.pdf')).status).toBe(201);
    await until(() => signals.length === 1);
    expect(signals[0]!.aborted).toBe(false);
    expect((await t.h.call('/v1/documents/delete-document', { collection_name: 'stopped', path: 'deleted.pdf' }, t.f.keyA)).status).toBe(200);
    await until(() => signals[0]!.aborted);
  } finally {
    await workers.stop();
  }
});

test('a stop past its grace stops the parse in hand, and the document goes back to the queue uncharged', async () => {
  const workers = await t.h.engine.startIngestion({ parser, concurrency: 1, idlePollMs: 50 });
  expect((await upload('held.pdf')).status).toBe(201);
  await until(() => signals.length === 2);
  await workers.stop({ graceMs: 100 });
  expect(signals[1]!.aborted).toBe(true);
  const row = await t.h.database.db.selectFrom('documents').select(['index_status', 'attempts', 'error']).where('path', '=', 'held.pdf').executeTakeFirstOrThrow();
  expect(row).toEqual({ index_status: 'not_parsed', attempts: 0, error: null });
});
