import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { foldDocumentUsage } from '../src/db/document-usage-pending.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/** Uploads sent together commit together (SQLite), and each still succeeds or fails on its own. */
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await f.workers.stop(); // only the uploads matter here
  await h.call('/v1/collections/add-collection', { collection_name: 'together' }, f.keyA);
});
afterAll(() => h.close());

test('concurrent uploads: one conflict and one unknown collection fail alone, the rest are stored', async () => {
  const transactions = vi.spyOn(h.database.db, 'transaction');
  const upload = (collection: string, path: string) =>
    h.call('/v1/documents/add-document', { collection_name: collection, path, content: { type: 'text', text: `text of ${path}` } }, f.keyA);
  const responses = await Promise.all([
    ...Array.from({ length: 8 }, (_, i) => upload('together', `doc-${i}.txt`)),
    upload('together', 'doc-3.txt'), // the same path again, without overwrite
    upload('elsewhere', 'lost.txt'),
  ]);
  expect(responses.filter((_, i) => i !== 3 && i < 8).map((response) => response.status)).toEqual(Array(7).fill(201));
  // The two uploads of doc-3.txt: whichever commits first is stored, the other is refused.
  const [stored3, refused3] = [responses[3]!, responses[8]!].sort((a, b) => a.status - b.status);
  expect(stored3.status).toBe(201);
  expect(refused3).toMatchObject({ status: 409, body: { detail: 'Document already exists.' } });
  expect(responses[9]!.status).toBe(404);

  const stored = await h.database.db.selectFrom('documents').select('path').orderBy('path').execute();
  expect(stored.map((row) => row.path)).toEqual(Array.from({ length: 8 }, (_, i) => `doc-${i}.txt`));
  await foldDocumentUsage(h.database.db);
  const usage = await h.database.db.selectFrom('document_usage').select((eb) => eb.fn.sum<number>('event_count').as('added')).where('event_type', '=', 'added').executeTakeFirstOrThrow();
  expect(Number(usage.added)).toBe(8);
  // SQLite commits them in fewer transactions than uploads; PostgreSQL gives each its own.
  if (h.database.dialect === 'sqlite') expect(transactions.mock.calls.length).toBeLessThan(10);
  transactions.mockRestore();
});
