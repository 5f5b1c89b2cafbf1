import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';
import { foldDocumentUsage } from '../src/db/document-usage-pending.ts';
import { providerFixtures } from './provider-fixtures.ts';

let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness();
  f = await providerFixtures(h);
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

const v1 = (path: string) => `/v1${path}`;

describe('collections', () => {
  test('a collection is added once, listed by name and deleted', async () => {
    expect((await h.call(v1('/collections/add-collection'), { collection_name: 'zeta' }, f.keyA)).status).toBe(201);
    const again = await h.call(v1('/collections/add-collection'), { collection_name: 'zeta' }, f.keyA);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Collection already exists.');
    await h.call(v1('/collections/add-collection'), { collection_name: 'alpha' }, f.keyA);
    const list = await h.call(v1('/collections/get-collection-list'), undefined, f.keyA);
    expect(list.body.collection_names).toEqual(expect.arrayContaining(['alpha', 'zeta']));
    expect((await h.call(v1('/collections/delete-collection'), { collection_name: 'alpha' }, f.keyA)).status).toBe(200);
    expect((await h.call(v1('/collections/delete-collection'), { collection_name: 'alpha' }, f.keyA)).status).toBe(404);
  });

  test('an invalid body is refused with 422 and a validation list', async () => {
    const bad = await h.call(v1('/collections/add-collection'), { collection_name: 'x', num_shards: 3 }, f.keyA);
    expect(bad.status).toBe(422);
    expect(Array.isArray(bad.body.detail)).toBe(true);
    expect((await h.call(v1('/collections/add-collection'), {}, f.keyA)).status).toBe(422);
  });

  test('no key or a wrong key is refused with 401', async () => {
    expect((await h.call(v1('/collections/get-collection-list'), {})).status).toBe(401);
    expect((await h.call(v1('/collections/get-collection-list'), {}, 'sift_wrong')).status).toBe(401);
  });
});

describe('documents and queries', () => {
  const c = 'docs';
  beforeAll(async () => {
    await h.call(v1('/collections/add-collection'), { collection_name: c }, f.keyA);
    const add = (path: string, content: unknown, metadata: unknown = {}) =>
      h.call(v1('/documents/add-document'), { collection_name: c, path, content, metadata }, f.keyA);
    expect((await add('fruit/apple.txt', { type: 'text', text: 'Apples are red and crunchy. An apple a day keeps the doctor away.' }, { kind: 'fruit', color: 'red', 'list:tags': ['tree', 'sweet'] })).status).toBe(201);
    expect((await add('fruit/banana.txt', { type: 'text', text: 'Bananas are yellow and soft. Monkeys love bananas.' }, { kind: 'fruit', color: 'yellow', 'list:tags': ['tropical'] })).status).toBe(201);
    expect((await add('veg/carrot.txt', { type: 'text-pages', pages: ['Carrots are orange roots.', 'Rabbits eat carrots and apples.'] }, { kind: 'vegetable', color: 'orange' })).status).toBe(201);
    const markdown = Buffer.from('# Pears\n\nPears are green or yellow fruit that grow on trees.').toString('base64');
    expect((await add('fruit/pear.md', { type: 'auto', base64_data: markdown }, { kind: 'fruit' })).status).toBe(201);
    expect((await add('broken.pdf', { type: 'auto', base64_data: Buffer.from('%PDF-1.7 this is not really a pdf').toString('base64') })).status).toBe(201);
    await f.workers.idle();
  });

  test('adding an existing path is a conflict unless overwrite, which answers 200', async () => {
    const body = { collection_name: c, path: 'dup.txt', content: { type: 'text', text: 'first version' } };
    expect((await h.call(v1('/documents/add-document'), body, f.keyA)).status).toBe(201);
    const conflict = await h.call(v1('/documents/add-document'), body, f.keyA);
    expect(conflict.status).toBe(409);
    const overwritten = await h.call(v1('/documents/add-document'), { ...body, content: { type: 'text', text: 'second version' }, overwrite: true }, f.keyA);
    expect(overwritten.status).toBe(200);
    expect(overwritten.body).toEqual({ message: 'Success!' });
    await f.workers.idle();
    const info = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'dup.txt', include_content: true }, f.keyA);
    expect(info.body.document.content).toBe('second version');
    await h.call(v1('/documents/delete-document'), { collection_name: c, path: 'dup.txt' }, f.keyA);
  });

  test('an unknown collection or path is 404', async () => {
    expect((await h.call(v1('/documents/add-document'), { collection_name: 'nope', path: 'a', content: { type: 'text', text: 'x' } }, f.keyA)).status).toBe(404);
    expect((await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'missing' }, f.keyA)).status).toBe(404);
    expect((await h.call(v1('/documents/get-page-info'), { collection_name: c, path: 'fruit/apple.txt', page_index: 7 }, f.keyA)).status).toBe(404);
    expect((await h.call(v1('/queries/top-snippets'), { collection_name: 'nope', query: 'a', k: 1 }, f.keyA)).status).toBe(404);
  });

  test('status counts documents by state, and a malformed file ends as parsing_failed with a reason', async () => {
    const status = await h.call(v1('/status/get-status'), { collection_name: c }, f.keyA);
    expect(status.body).toMatchObject({ num_documents: 5, num_indexed_documents: 4, num_failed_documents: 1, num_parsing_documents: 0, num_indexing_documents: 0 });
    expect(status.body.num_indexed_bytes).toBeGreaterThan(100);
    const all = await h.call(v1('/status/get-status'), undefined, f.keyA);
    expect(all.body.num_documents).toBeGreaterThanOrEqual(5);
    const broken = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'broken.pdf' }, f.keyA);
    expect(broken.body.document.index_status).toBe('parsing_failed');
    expect(broken.body.document.num_pages).toBeNull();
    // Its owner reads why, in the document info and in the listing.
    expect(broken.body.document.failure_reason).toMatch(/PDF/);
    const listed = await h.call(v1('/documents/get-document-info-list'), { collection_name: c }, f.keyA);
    const byPath = new Map(listed.body.documents.map((document: { path: string; failure_reason: string | null }) => [document.path, document.failure_reason]));
    expect(byPath.get('broken.pdf')).toBe(broken.body.document.failure_reason);
    expect(byPath.get('veg/carrot.txt')).toBeNull();
  });

  test('document info carries metadata, size, pages and content on request', async () => {
    const info = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'veg/carrot.txt', include_content: true }, f.keyA);
    expect(info.status).toBe(200);
    expect(info.body.document).toMatchObject({
      collection_name: c,
      path: 'veg/carrot.txt',
      metadata: { kind: 'vegetable', color: 'orange' },
      index_status: 'indexed',
      num_pages: 2,
      size: Buffer.byteLength('Carrots are orange roots.Rabbits eat carrots and apples.'),
    });
    expect(info.body.document.content).toContain('Carrots are orange roots.');
    const without = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'veg/carrot.txt' }, f.keyA);
    expect(without.body.document.content).toBeNull();
    const page = await h.call(v1('/documents/get-page-info'), { collection_name: c, path: 'veg/carrot.txt', page_index: 1, include_content: true }, f.keyA);
    expect(page.body.page).toMatchObject({ page_index: 1, content: 'Rabbits eat carrots and apples.', image_url: null, path: 'veg/carrot.txt' });
  });

  test('the file URL serves the raw data without a key, and a tampered token is refused', async () => {
    const info = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'fruit/apple.txt' }, f.keyA);
    const url = new URL(info.body.document.file_url);
    const file = await h.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Apples are red');
    expect(file.headers['content-type']).toContain('text/plain');
    const tampered = await h.app.inject({ method: 'GET', url: `${url.pathname}?token=${url.searchParams.get('token')!.slice(0, -2)}xx` });
    expect(tampered.statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(422);
  });

  test('the document list is sorted by path, filtered by prefix and paged by path_gt', async () => {
    const list = await h.call(v1('/documents/get-document-info-list'), { collection_name: c }, f.keyA);
    const paths = list.body.documents.map((d: { path: string }) => d.path);
    expect(paths).toEqual(['broken.pdf', 'fruit/apple.txt', 'fruit/banana.txt', 'fruit/pear.md', 'veg/carrot.txt']);
    const fruit = await h.call(v1('/documents/get-document-info-list'), { collection_name: c, path_prefix: 'fruit/', limit: 2 }, f.keyA);
    expect(fruit.body.documents.map((d: { path: string }) => d.path)).toEqual(['fruit/apple.txt', 'fruit/banana.txt']);
    const next = await h.call(v1('/documents/get-document-info-list'), { collection_name: c, path_prefix: 'fruit/', limit: 2, path_gt: 'fruit/banana.txt' }, f.keyA);
    expect(next.body.documents.map((d: { path: string }) => d.path)).toEqual(['fruit/pear.md']);
    expect(next.body.documents[0]).toHaveProperty('created_at');
    expect((await h.call(v1('/documents/get-document-info-list'), { collection_name: c, limit: 1025 }, f.keyA)).status).toBe(422);
  });

  test('top-snippets ranks matching snippets with scores in 0..1, coarse by default and fine when precise', async () => {
    const coarse = await h.call(v1('/queries/top-snippets'), { collection_name: c, query: 'apple doctor', k: 5 }, f.keyA);
    expect(coarse.status).toBe(200);
    expect(coarse.body.results[0].path).toBe('fruit/apple.txt');
    for (const result of coarse.body.results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
    expect(coarse.body.document_results[0]).toMatchObject({ path: 'fruit/apple.txt', metadata: null });
    const fine = await h.call(v1('/queries/top-snippets'), { collection_name: c, query: 'rabbits', k: 3, precise_responses: true, include_document_metadata: true }, f.keyA);
    const [snippet] = fine.body.results;
    expect(snippet.path).toBe('veg/carrot.txt');
    expect(snippet.page_span).toEqual([0, 2]); // the whole small document is one snippet over both pages
    const info = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'veg/carrot.txt', include_content: true }, f.keyA);
    expect(info.body.document.content.slice(snippet.start_index, snippet.end_index)).toBe(snippet.content);
    expect(fine.body.document_results[0].metadata).toEqual({ kind: 'vegetable', color: 'orange' });
    expect((await h.call(v1('/queries/top-snippets'), { collection_name: c, query: 'x', k: 129 }, f.keyA)).status).toBe(422);
  });

  test('top-pages returns pages with content on request and their documents', async () => {
    const pages = await h.call(v1('/queries/top-pages'), { collection_name: c, query: 'rabbits carrots', k: 10, include_content: true, include_metadata: true }, f.keyA);
    expect(pages.status).toBe(200);
    expect(pages.body.results[0]).toMatchObject({ path: 'veg/carrot.txt', image_url: null });
    expect(typeof pages.body.results[0].content).toBe('string');
    expect(pages.body.document_results.map((d: { path: string }) => d.path)).toContain('veg/carrot.txt');
    const withoutContent = await h.call(v1('/queries/top-pages'), { collection_name: c, query: 'rabbits carrots', k: 10 }, f.keyA);
    expect(withoutContent.body.results.map((r: { path: string }) => r.path)).toEqual(pages.body.results.map((r: { path: string }) => r.path));
    expect(withoutContent.body.results.every((r: { content: unknown }) => r.content === null)).toBe(true);
    expect((await h.call(v1('/queries/top-pages'), { collection_name: c, query: 'x', k: 1025 }, f.keyA)).status).toBe(422);
  });

  test('top-documents ranks documents, filters by metadata, and lists without a query', async () => {
    const ranked = await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'apples', k: 10, include_metadata: true }, f.keyA);
    expect(ranked.body.results.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['fruit/apple.txt', 'veg/carrot.txt']));
    const filtered = await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'apples', k: 10, filter: { kind: { $eq: 'fruit' } } }, f.keyA);
    expect(filtered.body.results.map((d: { path: string }) => d.path)).toEqual(['fruit/apple.txt']);
    const listed = await h.call(v1('/queries/top-documents'), { collection_name: c, query: null, k: 10, filter: { $or: [{ 'list:tags': { $in: ['tropical'] } }, { color: { $gte: 'red', $lt: 'yellow' } }] } }, f.keyA);
    expect(listed.body.results.map((d: { path: string }) => d.path).sort()).toEqual(['fruit/apple.txt', 'fruit/banana.txt']);
    const missing = await h.call(v1('/queries/top-documents'), { collection_name: c, query: null, k: 10, filter: { color: { $ne: 'red' } } }, f.keyA);
    expect(missing.body.results.map((d: { path: string }) => d.path).sort()).toEqual(['fruit/banana.txt', 'fruit/pear.md', 'veg/carrot.txt']);
    const nin = await h.call(v1('/queries/top-documents'), { collection_name: c, query: null, k: 10, filter: { 'list:tags': { $nin: ['tree', 'tropical'] } } }, f.keyA);
    expect(nin.body.results.map((d: { path: string }) => d.path).sort()).toEqual(['fruit/pear.md', 'veg/carrot.txt']);
    const bad = await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'a', k: 10, filter: { kind: { $regex: 'x' } } }, f.keyA);
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('$regex');
    expect((await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'a', k: 10, filter: { 'list:tags': { $eq: 'x' } } }, f.keyA)).status).toBe(422);
    expect((await h.call(v1('/queries/top-documents'), { collection_name: c, query: 'a', k: 2049 }, f.keyA)).status).toBe(422);
  });

  test('new metadata sends an indexed document back to not_indexed, then it is indexed again', async () => {
    const update = await h.call(v1('/documents/update-document'), { collection_name: c, path: 'fruit/pear.md', metadata: { kind: 'fruit', color: 'green' } }, f.keyA);
    expect(update.status).toBe(200);
    const info = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'fruit/pear.md' }, f.keyA);
    expect(['not_indexed', 'indexing', 'indexed']).toContain(info.body.document.index_status);
    await f.workers.idle();
    const after = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'fruit/pear.md' }, f.keyA);
    expect(after.body.document).toMatchObject({ index_status: 'indexed', metadata: { kind: 'fruit', color: 'green' } });
  });

  test('index_status retries only a failed document', async () => {
    const refused = await h.call(v1('/documents/update-document'), { collection_name: c, path: 'fruit/apple.txt', index_status: 'not_parsed' }, f.keyA);
    expect(refused.status).toBe(400);
    const retried = await h.call(v1('/documents/update-document'), { collection_name: c, path: 'broken.pdf', index_status: 'not_parsed' }, f.keyA);
    expect(retried.status).toBe(200);
    await f.workers.idle();
    const info = await h.call(v1('/documents/get-document-info'), { collection_name: c, path: 'broken.pdf' }, f.keyA);
    expect(info.body.document.index_status).toBe('parsing_failed');
  });

  test('delete-document takes one path or a list, answers the paths found, 404 when none', async () => {
    await h.call(v1('/documents/add-document'), { collection_name: c, path: 'tmp/1', content: { type: 'text', text: 'one' } }, f.keyA);
    await h.call(v1('/documents/add-document'), { collection_name: c, path: 'tmp/2', content: { type: 'text', text: 'two' } }, f.keyA);
    const deleted = await h.call(v1('/documents/delete-document'), { collection_name: c, path: ['tmp/1', 'tmp/2', 'tmp/3'] }, f.keyA);
    expect(deleted.body.deleted_paths).toEqual(['tmp/1', 'tmp/2']);
    expect((await h.call(v1('/documents/delete-document'), { collection_name: c, path: 'tmp/1' }, f.keyA)).status).toBe(404);
    const tooMany = Array.from({ length: 65 }, (_, i) => `p${i}`);
    expect((await h.call(v1('/documents/delete-document'), { collection_name: c, path: tooMany }, f.keyA)).status).toBe(422);
  });

  test('usage events are recorded for document actions and queries', async () => {
    await foldDocumentUsage(h.database.db);
    const documents = await h.database.db.selectFrom('document_usage').selectAll().where('organization_id', '=', f.organizationA).execute();
    const byType = (type: string) => documents.filter((row) => row.event_type === type).reduce((total, row) => total + Number(row.event_count), 0);
    expect(byType('added')).toBeGreaterThanOrEqual(5);
    expect(byType('indexed')).toBeGreaterThanOrEqual(4);
    expect(byType('parsed')).toBeGreaterThanOrEqual(4);
    expect(byType('deleted')).toBeGreaterThanOrEqual(2);
    await h.context.queryUsage.flush(); // query events are written once a second (domain/query-usage.ts)
    const queries = await h.database.db.selectFrom('query_usage').selectAll().where('organization_id', '=', f.organizationA).execute();
    expect(new Set(queries.map((row) => row.query_type))).toEqual(new Set(['coarse', 'fine', 'pages', 'documents']));
  });
});

describe('isolation and permissions', () => {
  beforeAll(async () => {
    await h.call(v1('/collections/add-collection'), { collection_name: 'private' }, f.keyA);
    await h.call(v1('/documents/add-document'), { collection_name: 'private', path: 'secret.txt', content: { type: 'text', text: 'the secret plan' } }, f.keyA);
    await f.workers.idle();
  });

  test("another organization sees none of this organization's collections or documents", async () => {
    const list = await h.call(v1('/collections/get-collection-list'), {}, f.keyB);
    expect(list.body.collection_names).not.toContain('private');
    for (const [path, body] of [
      ['/documents/get-document-info', { collection_name: 'private', path: 'secret.txt' }],
      ['/documents/get-document-info-list', { collection_name: 'private' }],
      ['/documents/get-page-info', { collection_name: 'private', path: 'secret.txt', page_index: 0 }],
      ['/queries/top-snippets', { collection_name: 'private', query: 'secret', k: 5 }],
      ['/queries/top-pages', { collection_name: 'private', query: 'secret', k: 5 }],
      ['/queries/top-documents', { collection_name: 'private', query: 'secret', k: 5 }],
      ['/status/get-status', { collection_name: 'private' }],
      ['/documents/delete-document', { collection_name: 'private', path: 'secret.txt' }],
      ['/collections/delete-collection', { collection_name: 'private' }],
    ] as const) {
      expect((await h.call(v1(path), body, f.keyB)).status, path).toBe(404);
    }
    // B can use the same name for its own collection.
    expect((await h.call(v1('/collections/add-collection'), { collection_name: 'private' }, f.keyB)).status).toBe(201);
    const search = await h.call(v1('/queries/top-snippets'), { collection_name: 'private', query: 'secret', k: 5 }, f.keyB);
    expect(search.body.results).toEqual([]);
  });

  test('a read_only key reads but every write is refused with 403', async () => {
    expect((await h.call(v1('/collections/get-collection-list'), {}, f.readOnlyA)).status).toBe(200);
    expect((await h.call(v1('/queries/top-snippets'), { collection_name: 'private', query: 'secret', k: 5 }, f.readOnlyA)).status).toBe(200);
    for (const [path, body] of [
      ['/collections/add-collection', { collection_name: 'new' }],
      ['/collections/delete-collection', { collection_name: 'private' }],
      ['/documents/add-document', { collection_name: 'private', path: 'x', content: { type: 'text', text: 'x' } }],
      ['/documents/update-document', { collection_name: 'private', path: 'secret.txt', metadata: { a: 'b' } }],
      ['/documents/delete-document', { collection_name: 'private', path: 'secret.txt' }],
    ] as const) {
      const refused = await h.call(v1(path), body, f.readOnlyA);
      expect(refused.status, path).toBe(403);
      expect(refused.body.detail).toMatch(/read-only/);
    }
    const still = await h.call(v1('/documents/get-document-info'), { collection_name: 'private', path: 'secret.txt' }, f.keyA);
    expect(still.status).toBe(200);
  });

  test('deleting a collection removes its documents and their raw files', async () => {
    await h.call(v1('/collections/add-collection'), { collection_name: 'gone' }, f.keyA);
    await h.call(v1('/documents/add-document'), { collection_name: 'gone', path: 'a.txt', content: { type: 'auto', base64_data: Buffer.from('<!doctype html><p>unique text for the gone collection</p>').toString('base64') } }, f.keyA);
    await f.workers.idle();
    const [row] = await h.database.db.selectFrom('documents').select('file_hash').where('path', '=', 'a.txt').execute();
    // A page of HTML: a file that is not its text, so it is kept while the document lives.
    await expect(h.files.read(row!.file_hash)).resolves.toBeInstanceOf(Buffer);
    expect((await h.call(v1('/collections/delete-collection'), { collection_name: 'gone' }, f.keyA)).status).toBe(200);
    await expect(h.files.read(row!.file_hash)).rejects.toThrow();
    expect(await h.database.db.selectFrom('chunks').select('seq').where('document_seq', 'not in', h.database.db.selectFrom('documents').select('seq')).execute()).toEqual([]);
  });
});
