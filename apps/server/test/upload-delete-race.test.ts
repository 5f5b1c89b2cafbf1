import { afterAll, beforeAll, expect, test } from 'vitest';
import { addDocument } from '../src/domain/documents.ts';
import type { FileStore } from '../src/file-store.ts';
import type { ProviderActor } from '../src/domain/provider-actor.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Identical uploads share one stored object, removed when its last document goes. An upload
 * whose bytes were stored while the last other document with the same bytes was being deleted
 * must still commit with its file: nothing acknowledged is lost. The deletion is made to land
 * exactly between the upload storing its object and its transaction (both dialects).
 */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call('/v1/collections/add-collection', { collection_name: 'race' }, f.keyA);
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

const text = 'The same bytes, uploaded twice: a ferry timetable for the winter months.';

test('an upload racing the deletion of the last document with the same bytes keeps its file, and is indexed', async () => {
  expect((await h.call('/v1/documents/add-document', { collection_name: 'race', path: 'first.txt', content: { type: 'text', text } }, f.keyA)).status).toBe(201);
  await f.workers.idle();

  let storedHash = '';
  const racing: FileStore = {
    ...h.files,
    async put(bytes) {
      storedHash = await h.files.put(bytes);
      // Another client deletes the only document with these bytes now: their object is released.
      expect((await h.call('/v1/documents/delete-document', { collection_name: 'race', path: 'first.txt' }, f.keyA)).status).toBe(200);
      return storedHash;
    },
  };
  const actor = { organizationId: f.organizationA, permission: 'read_write', files: racing } as unknown as ProviderActor;
  await addDocument(h.database, h.engine, actor, { collection_name: 'race', path: 'second.txt', content: { type: 'text', text }, metadata: {}, overwrite: false });

  expect((await h.files.read(storedHash)).toString()).toBe(text);
  const status = async () => (await h.call('/v1/documents/get-document-info', { collection_name: 'race', path: 'second.txt' }, f.keyA)).body.document.index_status;
  await expect.poll(status, { timeout: 20_000, interval: 100 }).toBe('indexed');
});
