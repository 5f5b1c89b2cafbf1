import { describe, expect, test } from 'vitest';
import { fileHarness } from './support/file-harness.ts';
import { issueSessionToken } from '../src/auth/session.ts';
import { sha256 } from '../src/file-store.ts';

/**
 * Raw files in an S3-compatible bucket: a real S3-protocol server (s3rver) on loopback, the
 * official SDK, no mock. Uploads land in the bucket, file links serve them from it, and deleting
 * a document, a collection or an organization removes its objects (those no one else shares).
 */
const v1 = (path: string) => `/v1${path}`;
const t = fileHarness({ objectStore: true });

/** The file of an upload of `text`: a page of HTML, not its text, so it stays in the bucket once indexed. */
const fileOf = (text: string) => `<!doctype html><p>${text}</p>`;
const stored = async (text: string) =>
  t.h.files.read(sha256(Buffer.from(fileOf(text)))).then(
    () => true,
    () => false,
  );

const add = (key: string, collection: string, path: string, text: string) =>
  t.h.call(v1('/documents/add-document'), { collection_name: collection, path, content: { type: 'auto', base64_data: Buffer.from(fileOf(text)).toString('base64') } }, key);

describe('raw files in an S3-compatible object store', () => {
  test('an upload is stored in the bucket, indexed from it, and its file link serves it', async () => {
    expect(t.h.files.kind).toBe('s3');
    await t.h.call(v1('/collections/add-collection'), { collection_name: 'bucket' }, t.f.keyA);
    expect((await add(t.f.keyA, 'bucket', 'kiwi.txt', 'The kiwi is a flightless bird of New Zealand.')).status).toBe(201);
    expect(await stored('The kiwi is a flightless bird of New Zealand.')).toBe(true);
    await t.f.workers.idle();
    const hits = await t.h.call(v1('/queries/top-documents'), { collection_name: 'bucket', query: 'flightless bird', k: 1 }, t.f.keyA);
    expect(hits.body.results[0].path).toBe('kiwi.txt');
    const info = await t.h.call(v1('/documents/get-document-info'), { collection_name: 'bucket', path: 'kiwi.txt' }, t.f.keyA);
    expect(info.body.document.index_status).toBe('indexed');
    const file = await t.h.app.inject({ method: 'GET', url: new URL(info.body.document.file_url).pathname + new URL(info.body.document.file_url).search });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(fileOf('The kiwi is a flightless bird of New Zealand.'));
  });

  test('deleting a document removes its object', async () => {
    await add(t.f.keyA, 'bucket', 'gone.txt', 'a document about to be deleted');
    expect(await stored('a document about to be deleted')).toBe(true);
    expect((await t.h.call(v1('/documents/delete-document'), { collection_name: 'bucket', path: 'gone.txt' }, t.f.keyA)).status).toBe(200);
    expect(await stored('a document about to be deleted')).toBe(false);
  });

  test('deleting a collection removes its objects, but not one another organization shares', async () => {
    await t.h.call(v1('/collections/add-collection'), { collection_name: 'doomed' }, t.f.keyA);
    await t.h.call(v1('/collections/add-collection'), { collection_name: 'kept' }, t.f.keyB);
    await add(t.f.keyA, 'doomed', 'only-a.txt', 'text only organization A has');
    await add(t.f.keyA, 'doomed', 'shared.txt', 'text both organizations uploaded');
    await add(t.f.keyB, 'kept', 'shared.txt', 'text both organizations uploaded');
    expect((await t.h.call(v1('/collections/delete-collection'), { collection_name: 'doomed' }, t.f.keyA)).status).toBe(200);
    expect(await stored('text only organization A has')).toBe(false);
    expect(await stored('text both organizations uploaded')).toBe(true);
  });

  test('deleting an organization removes its objects', async () => {
    await add(t.f.keyB, 'kept', 'b-only.txt', 'text only organization B has');
    expect(await stored('text only organization B has')).toBe(true);
    const owner = await t.h.database.db.selectFrom('memberships').select('user_id').where('organization_id', '=', t.f.organizationB).executeTakeFirstOrThrow();
    const session = await issueSessionToken(t.h.database, t.h.keyring, owner.user_id);
    const deleted = await t.h.call('/api/organizations/delete-organization', { organization_id: t.f.organizationB }, session);
    expect(deleted.status).toBe(200);
    expect(await stored('text only organization B has')).toBe(false);
    expect(await stored('text both organizations uploaded')).toBe(false);
  });

  test('a file link whose object is gone answers 404 with a reason, not 500', async () => {
    await add(t.f.keyA, 'bucket', 'vanishing.txt', 'bytes removed behind our back');
    const info = await t.h.call(v1('/documents/get-document-info'), { collection_name: 'bucket', path: 'vanishing.txt' }, t.f.keyA);
    const hash = sha256(Buffer.from(fileOf('bytes removed behind our back')));
    await t.h.database.db.updateTable('documents').set({ file_hash: 'f'.repeat(64) }).where('file_hash', '=', hash).execute();
    const link = new URL(info.body.document.file_url);
    const file = await t.h.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(file.statusCode).toBe(404);
    expect(file.json()).toEqual({ detail: 'The raw document data is missing from storage.' });
  });
});
