import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BLOB_SLICE_BYTES, readBlobInSlices, writeBlob } from '../src/db/blobs.ts';
import * as smallFilesInSqlite from '../src/db/migrations/013_small_files_in_sqlite.ts';
import { sha256, SMALL_OBJECT_BYTES } from '../src/file-store.ts';
import { diskObjects } from '../src/storage/disk-objects.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

/**
 * Raw files without an object store: small ones in the database, written in the transaction that
 * adds their document; large ones in the data folder (SQLite) or written to PostgreSQL before it.
 * What a client sees is the same: the document is indexed from its bytes and its file link serves them.
 */
const v1 = (path: string) => `/v1${path}`;
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call(v1('/collections/add-collection'), { collection_name: 'raw' }, f.keyA);
});
afterAll(async () => {
  await f?.workers.stop();
  await h?.close();
});

const onSqlite = () => h.database.dialect === 'sqlite';
/**
 * The file of an upload of `text`: a page of HTML, a file that is not its document's text, so it
 * stays kept once indexed (a plain text or text-pages one is not: the last tests).
 */
const fileOf = (text: string) => `<!doctype html><p>${text}</p>`;
const inFolder = (text: string) => {
  const hash = sha256(Buffer.from(fileOf(text)));
  return existsSync(join(h.config.dataDir, 'files', hash.slice(0, 2), hash));
};
const inDatabase = async (text: string) =>
  (await h.database.db.selectFrom('blobs').select('hash').where('hash', '=', sha256(Buffer.from(fileOf(text)))).executeTakeFirst()) !== undefined;
const add = (path: string, text: string) =>
  h.call(v1('/documents/add-document'), { collection_name: 'raw', path, content: { type: 'auto', base64_data: Buffer.from(fileOf(text)).toString('base64') } }, f.keyA);
const served = async (path: string) => {
  const info = await h.call(v1('/documents/get-document-info'), { collection_name: 'raw', path }, f.keyA);
  const link = new URL(info.body.document.file_url);
  const file = await h.app.inject({ method: 'GET', url: link.pathname + link.search });
  return { status: file.statusCode, body: file.body, indexStatus: info.body.document.index_status };
};

// A large document's words: distinct enough to find it by one of them.
const large = `${'Walruses rest on sea ice between dives. '.repeat(Math.ceil((SMALL_OBJECT_BYTES + 1000) / 40))}walrusology`;
const small = 'Puffins nest in burrows on cliff tops.';

describe('raw files kept by the database and the data folder', () => {
  test('a small upload is kept in the database, a large one in the data folder on SQLite; both are indexed and served', async () => {
    expect(h.files.kind).toBe(onSqlite() ? 'sqlite' : 'postgres');
    expect((await add('puffin.txt', small)).status).toBe(201);
    expect((await add('walrus.txt', large)).status).toBe(201);
    expect(await inDatabase(small)).toBe(true);
    expect(inFolder(small)).toBe(false);
    expect(await inDatabase(large)).toBe(!onSqlite());
    expect(inFolder(large)).toBe(onSqlite());
    await f.workers.idle();
    for (const [path, text] of [['puffin.txt', small], ['walrus.txt', large]] as const) {
      expect(await served(path)).toEqual({ status: 200, body: fileOf(text), indexStatus: 'indexed' });
    }
    const hits = await h.call(v1('/queries/top-documents'), { collection_name: 'raw', query: 'walrusology', k: 1 }, f.keyA);
    expect(hits.body.results.map((hit: { path: string }) => hit.path)).toEqual(['walrus.txt']);
  });

  test('a text upload is kept in fewer bytes than the file and served as uploaded; a row written uncompressed still reads', async () => {
    const page = 'Kittiwakes call their own name from the ledges. '.repeat(60);
    const text = fileOf(page);
    expect((await add('kittiwake.txt', page)).status).toBe(201);
    await f.workers.idle();
    const hash = sha256(Buffer.from(text));
    const row = await h.database.db.selectFrom('blobs').select(['bytes', 'size']).where('hash', '=', hash).executeTakeFirstOrThrow();
    expect(Number(row.size)).toBe(Buffer.byteLength(text));
    expect(row.bytes.length).toBeLessThan(Buffer.byteLength(text) / 4);
    expect((await served('kittiwake.txt')).body).toBe(text);
    // As a blob written before files were compressed left it: the file's bytes as they are.
    await h.database.db.updateTable('blobs').set({ bytes: Buffer.from(text) }).where('hash', '=', hash).execute();
    expect(await served('kittiwake.txt')).toEqual({ status: 200, body: text, indexStatus: 'indexed' });
    expect((await h.files.read(hash)).toString()).toBe(text);
  });

  test.runIf(process.env.SIFT_TEST_DIALECT === 'postgres')('a compressible raw file of several slices is read back from PostgreSQL byte for byte', async () => {
    // Hex digits: gzip halves them, still two slices and part of a third.
    const bytes = Buffer.from(randomBytes(Math.ceil(2.5 * BLOB_SLICE_BYTES)).toString('hex'));
    const hash = sha256(bytes);
    await writeBlob(h.database.db, hash, bytes);
    const stored = await h.database.db.selectFrom('blobs').select('bytes').where('hash', '=', hash).executeTakeFirstOrThrow();
    expect(stored.bytes.length).toBeGreaterThan(BLOB_SLICE_BYTES);
    expect(stored.bytes.length).toBeLessThan(bytes.length);
    expect((await readBlobInSlices(h.database.db, hash))?.equals(bytes)).toBe(true);
    await h.database.db.deleteFrom('blobs').where('hash', '=', hash).execute();
  });

  test.runIf(process.env.SIFT_TEST_DIALECT === 'postgres')('a raw file of several slices is read back from PostgreSQL byte for byte; one not stored, as none', async () => {
    // Two whole slices and part of a third, so every boundary and the short last slice are crossed.
    const bytes = randomBytes(2 * BLOB_SLICE_BYTES + 12_345);
    const hash = sha256(bytes);
    await writeBlob(h.database.db, hash, bytes);
    const read = await readBlobInSlices(h.database.db, hash);
    expect(read?.length).toBe(bytes.length);
    expect(read?.equals(bytes)).toBe(true);
    expect(await readBlobInSlices(h.database.db, sha256(Buffer.from('never stored')))).toBeNull();
    await h.database.db.deleteFrom('blobs').where('hash', '=', hash).execute();
  });

  test('deleting documents removes their bytes from the database and the folder', async () => {
    await h.call(v1('/documents/delete-document'), { collection_name: 'raw', path: 'puffin.txt' }, f.keyA);
    await h.call(v1('/documents/delete-document'), { collection_name: 'raw', path: 'walrus.txt' }, f.keyA);
    expect(await inDatabase(small)).toBe(false);
    expect(await inDatabase(large)).toBe(false);
    expect(inFolder(large)).toBe(false);
  });

  test('a rejected upload leaves no bytes behind', async () => {
    expect((await add('kept.txt', 'The first version stays.')).status).toBe(201);
    expect((await add('kept.txt', 'A second upload to the same path is refused.')).status).toBe(409);
    expect(await inDatabase('A second upload to the same path is refused.')).toBe(false);
    expect(await inDatabase('The first version stays.')).toBe(true);
  });

  test.runIf(process.env.SIFT_TEST_DIALECT !== 'postgres')('a file the data folder held before small files moved to the database is still served and removed (SQLite)', async () => {
    const page = 'Gannets dive from thirty metres.';
    const text = fileOf(page);
    expect((await add('gannet.txt', page)).status).toBe(201);
    await f.workers.idle();
    // As an upload stored before migration 013 left it: in the folder only.
    const hash = sha256(Buffer.from(text));
    await diskObjects(h.config.dataDir).write(hash, Buffer.from(text));
    await h.database.db.deleteFrom('blobs').where('hash', '=', hash).execute();
    expect(await served('gannet.txt')).toEqual({ status: 200, body: text, indexStatus: 'indexed' });
    expect((await h.files.read(hash)).toString()).toBe(text);
    await h.call(v1('/documents/delete-document'), { collection_name: 'raw', path: 'gannet.txt' }, f.keyA);
    expect(inFolder(page)).toBe(false);
  });

  test.runIf(process.env.SIFT_TEST_DIALECT !== 'postgres')('migration 013 refuses to go down while the database holds raw files (SQLite)', async () => {
    expect((await add('tern.txt', 'Terns hover before they dive.')).status).toBe(201);
    // 013's own down: going there through the later ones would first undo 022, which does change SQLite.
    await expect(smallFilesInSqlite.down(h.database.db as never)).rejects.toThrow(/raw files are kept in the blobs table/);
    expect(await inDatabase('Terns hover before they dive.')).toBe(true);
    expect(await served('tern.txt')).toMatchObject({ status: 200, body: fileOf('Terns hover before they dive.') });
  });

  test('a plain text file is not kept once indexed but served byte for byte from its text; a file another document needs stays', async () => {
    const text = 'Shags dry their wings on the rocks, ca\u0301fe\u0301 \u{1F426} and all.';
    const plain = (path: string, body: string) => h.call(v1('/documents/add-document'), { collection_name: 'raw', path, content: { type: 'text', text: body } }, f.keyA);
    expect((await plain('shag.txt', text)).status).toBe(201);
    // A plain text whose bytes are another document's file (its HTML): one hash for both.
    expect((await plain('pages-as-text.txt', fileOf('Cormorants'))).status).toBe(201);
    expect((await add('cormorant.txt', 'Cormorants')).status).toBe(201);
    await f.workers.idle();
    expect(await served('shag.txt')).toEqual({ status: 200, body: text, indexStatus: 'indexed' });
    expect(await h.database.db.selectFrom('blobs').select('hash').where('hash', '=', sha256(Buffer.from(text))).executeTakeFirst()).toBeUndefined();
    expect(await inDatabase('Cormorants')).toBe(true);
    await h.call(v1('/documents/delete-document'), { collection_name: 'raw', path: 'cormorant.txt' }, f.keyA);
    expect(await inDatabase('Cormorants')).toBe(false);
    expect(await served('pages-as-text.txt')).toEqual({ status: 200, body: fileOf('Cormorants'), indexStatus: 'indexed' });
    const hits = await h.call(v1('/queries/top-snippets'), { collection_name: 'raw', query: 'shags rocks', k: 1 }, f.keyA);
    expect(hits.body.results[0]).toMatchObject({ path: 'shag.txt', content: text });
  });

  test('a text-pages file is not kept once indexed but served byte for byte from its pages, also once indexed again', async () => {
    const pages = ['Razorbills winter far out at sea, ca\u0301fe\u0301.', '', 'They come back to the cliffs in spring \u{1F426}.'];
    const file = JSON.stringify(pages);
    const upload = { collection_name: 'raw', path: 'razorbill.json', content: { type: 'text-pages', pages } };
    expect((await h.call(v1('/documents/add-document'), upload, f.keyA)).status).toBe(201);
    await f.workers.idle();
    expect(await served('razorbill.json')).toEqual({ status: 200, body: file, indexStatus: 'indexed' });
    expect(await h.database.db.selectFrom('blobs').select('hash').where('hash', '=', sha256(Buffer.from(file))).executeTakeFirst()).toBeUndefined();
    // New metadata: indexed again from its stored pages, its file still made from them.
    expect((await h.call(v1('/documents/update-document'), { collection_name: 'raw', path: 'razorbill.json', metadata: { bird: 'auk' } }, f.keyA)).status).toBe(200);
    await f.workers.idle();
    expect(await served('razorbill.json')).toEqual({ status: 200, body: file, indexStatus: 'indexed' });
    const hits = await h.call(v1('/queries/top-pages'), { collection_name: 'raw', query: 'cliffs spring', k: 1, include_content: true }, f.keyA);
    expect(hits.body.results[0]).toMatchObject({ path: 'razorbill.json', page_index: 2, content: pages[2] });
  });
});
