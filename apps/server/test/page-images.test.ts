import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pageImageLinks } from '../src/domain/file-links.ts';
import { imageSize, Ocr } from '../src/engine/ingest/parsers/ocr.ts';
import { makePdf } from './fixtures/ingest/make-fixtures.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// Page images (issue #15): every page of a PDF, and an image's one page, has a JPEG.

let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures/ingest', name));
const v1 = (path: string) => `/v1${path}`;
const makeOnePagePdf = () => makePdf(['The replacement document.']);
const collection = 'images';
/** Reads the rendered pages back, as a user would. */
const ocr = new Ocr();

beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
  await h.call(v1('/collections/add-collection'), { collection_name: collection }, f.keyA);
  const add = (path: string, content: object) => h.call(v1('/documents/add-document'), { collection_name: collection, path, content }, f.keyA);
  expect((await add('two-pages.pdf', { type: 'auto', base64_data: fixture('two-pages.pdf').toString('base64') })).status).toBe(201);
  expect((await add('words.png', { type: 'auto', base64_data: fixture('words.png').toString('base64') })).status).toBe(201);
  expect((await add('plain.txt', { type: 'text', text: 'The quick brown fox, in plain text.' })).status).toBe(201);
  await f.workers.idle();
});
afterAll(async () => {
  await f.workers.stop();
  await ocr.close();
  await h.close();
});

const pageInfo = async (path: string, pageIndex: number) =>
  (await h.call(v1('/documents/get-page-info'), { collection_name: collection, path, page_index: pageIndex }, f.keyA)).body.page;
const documentId = async (path: string) =>
  (await h.database.db.selectFrom('documents').select('id').where('path', '=', path).executeTakeFirstOrThrow()).id;
const fetchImage = (url: string) => h.app.inject({ method: 'GET', url: url.slice(url.indexOf('/v1/')) });

describe('page images', () => {
  test('the page image of a two-page PDF is a JPEG of that page, cached forever and kept', async () => {
    const texts = ['quick brown fox', 'lazy dog'];
    for (const [pageIndex, text] of texts.entries()) {
      const page = await pageInfo('two-pages.pdf', pageIndex);
      expect(page.image_url).toMatch(/\/v1\/documents\/get-page-image\?token=/);
      const image = await fetchImage(page.image_url);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.headers['cache-control']).toContain('immutable');
      const jpeg = image.rawPayload;
      expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      // Letter size (612 x 792 points) rendered at twice its size.
      expect(imageSize(jpeg, 'JPEG')).toEqual({ width: 1224, height: 1584 });
      // What the picture shows is that page's text, and not the other page's.
      const seen = (await ocr.recognize(jpeg, 'JPEG')).toLowerCase();
      expect(seen).toContain(text);
      expect(seen).not.toContain(texts[1 - pageIndex]!);
      // Made once and kept: the second request returns the same bytes.
      expect((await fetchImage(page.image_url)).rawPayload.equals(jpeg)).toBe(true);
    }
    const stored = await h.database.db.selectFrom('page_images').select('page_index').where('document_id', '=', await documentId('two-pages.pdf')).execute();
    expect(stored.map((row) => row.page_index).sort()).toEqual([0, 1]);
  });

  test("an image document's one page has a JPEG of the image", async () => {
    const page = await pageInfo('words.png', 0);
    const image = await fetchImage(page.image_url);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(imageSize(image.rawPayload, 'JPEG')).toEqual(imageSize(fixture('words.png'), 'PNG'));
  });

  test('top-pages results carry image_url for PDF pages and null for text pages', async () => {
    const { body } = await h.call(v1('/queries/top-pages'), { collection_name: collection, query: 'quick brown fox', k: 10 }, f.keyA);
    const byPath = new Map((body.results as { path: string; image_url: string | null }[]).map((r) => [r.path, r.image_url]));
    expect(byPath.get('two-pages.pdf')).toMatch(/get-page-image\?token=/);
    expect(byPath.get('plain.txt')).toBeNull();
  });

  test('a page without an image, or a bad token, is 404', async () => {
    expect((await pageInfo('plain.txt', 0)).image_url).toBeNull();
    const document = await h.database.db.selectFrom('documents').select(['id', 'file_hash']).where('path', '=', 'plain.txt').executeTakeFirstOrThrow();
    const textPage = await fetchImage(await pageImageLinks(h.keyring, 'http://x')(document.id, 0, document.file_hash));
    expect(textPage.statusCode).toBe(404);
    expect(textPage.json().detail).toBe('This page has no image.');
    const pdf = await h.database.db.selectFrom('documents').select(['id', 'file_hash']).where('path', '=', 'two-pages.pdf').executeTakeFirstOrThrow();
    expect((await fetchImage(await pageImageLinks(h.keyring, 'http://x')(pdf.id, 2, pdf.file_hash))).statusCode).toBe(404);
    expect((await fetchImage(await pageImageLinks(h.keyring, 'http://x')(pdf.id, 0, 'another-file'))).statusCode).toBe(404);
    expect((await fetchImage('/v1/documents/get-page-image?token=forged')).statusCode).toBe(404);
    expect((await fetchImage('/v1/documents/get-page-image')).statusCode).toBe(422);
  });

  test('an overwritten PDF gets new page-image links; the old ones answer 404', async () => {
    await h.call(v1('/documents/add-document'), { collection_name: collection, path: 'overwritten.pdf', content: { type: 'auto', base64_data: fixture('two-pages.pdf').toString('base64') } }, f.keyA);
    await f.workers.idle();
    const before = (await pageInfo('overwritten.pdf', 0)).image_url;
    expect((await fetchImage(before)).statusCode).toBe(200);
    const other = makeOnePagePdf();
    await h.call(v1('/documents/add-document'), { collection_name: collection, path: 'overwritten.pdf', content: { type: 'auto', base64_data: other.toString('base64') }, overwrite: true }, f.keyA);
    await f.workers.idle();
    const after = (await pageInfo('overwritten.pdf', 0)).image_url;
    expect(after).not.toBe(before);
    expect((await fetchImage(before)).statusCode).toBe(404);
    const fresh = await fetchImage(after);
    expect(fresh.statusCode).toBe(200);
    expect((await ocr.recognize(fresh.rawPayload, 'JPEG')).toLowerCase()).toContain('replacement');
  });

  test('deleting the document deletes its page images', async () => {
    const id = await documentId('two-pages.pdf');
    await h.call(v1('/documents/delete-document'), { collection_name: collection, path: 'two-pages.pdf' }, f.keyA);
    expect(await h.database.db.selectFrom('page_images').select('page_index').where('document_id', '=', id).execute()).toHaveLength(0);
  });
});
