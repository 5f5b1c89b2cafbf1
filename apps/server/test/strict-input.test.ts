import { Writable } from 'node:stream';
import { BODY_LIMIT_BYTES } from '@sift/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/http/app.ts';
import { createAppContext } from '../src/http/context.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// Issue #15: every bad input is refused with 422 (or 413) and a detail, and changes nothing.

let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
const ADMIN_KEY = 'strict-admin-key-0123456789';
beforeAll(async () => {
  h = await startHarness({ SIFT_ADMIN_KEY: ADMIN_KEY });
  f = await providerFixtures(h);
  await h.call('/v1/collections/add-collection', { collection_name: 'strict' }, f.keyA);
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

const v1 = (path: string) => `/v1${path}`;
const refused = (response: { status: number; body: { detail?: unknown } }, status = 422) => {
  expect(response.status).toBe(status);
  expect(response.body.detail).toBeTruthy();
};

describe('provider API', () => {
  test('collection names with NUL, control characters or lone surrogates are refused and nothing is created', async () => {
    for (const name of ['bad\u0000name', 'bad\u0007name', 'line\nbreak', 'half\ud800pair', 'x'.repeat(1025), 'é'.repeat(513)]) {
      refused(await h.call(v1('/collections/add-collection'), { collection_name: name }, f.keyA));
    }
    const list = await h.call(v1('/collections/get-collection-list'), {}, f.keyA);
    expect(list.body.collection_names).toEqual(['strict']);
    // A name at the limit, and characters beyond the BMP, are fine.
    expect((await h.call(v1('/collections/add-collection'), { collection_name: `emoji 😀 ${'y'.repeat(1000)}` }, f.keyA)).status).toBe(201);
  });

  test('bad paths, base64 and metadata are refused at add-document before anything is stored', async () => {
    const add = (body: object) => h.call(v1('/documents/add-document'), { collection_name: 'strict', path: 'ok.txt', content: { type: 'text', text: 'x' }, ...body }, f.keyA);
    refused(await add({ path: 'p'.repeat(5000) }));
    refused(await add({ path: 'nul\u0000.txt' }));
    refused(await add({ path: 'tab\there.txt' }));
    refused(await add({ path: 'lone\udc00.txt' }));
    const base64 = await add({ path: 'file.pdf', content: { type: 'auto', base64_data: 'a' } });
    refused(base64);
    expect(JSON.stringify(base64.body.detail)).toMatch(/base64/);
    refused(await add({ metadata: { key: 'v'.repeat(1025) } }));
    refused(await add({ metadata: { ['k'.repeat(129)]: 'v' } }));
    const status = await h.call(v1('/status/get-status'), { collection_name: 'strict' }, f.keyA);
    expect(status.body.num_documents).toBe(0);
    // parse-document refuses the same base64 the same way.
    refused(await h.call(v1('/parsers/parse-document'), { base64_data: 'a' }, f.keyA));
  });

  test('rerank top_n must be at least 1', async () => {
    refused(await h.call(v1('/models/rerank'), { model: 'zerank-2', query: 'q', documents: ['d'], top_n: 0 }, f.keyA));
    expect((await h.call(v1('/models/rerank'), { model: 'zerank-2', query: 'q', documents: ['d'], top_n: 1 }, f.keyA)).status).toBe(200);
  });

  test('the query limit is 4096 UTF-8 bytes on top-documents and top-pages, 4096 characters on top-snippets', async () => {
    const twoByteChars = 'é'.repeat(2049); // 2049 characters, 4098 bytes
    refused(await h.call(v1('/queries/top-documents'), { collection_name: 'strict', query: twoByteChars, k: 1 }, f.keyA));
    refused(await h.call(v1('/queries/top-pages'), { collection_name: 'strict', query: twoByteChars, k: 1 }, f.keyA));
    expect((await h.call(v1('/queries/top-snippets'), { collection_name: 'strict', query: twoByteChars, k: 1 }, f.keyA)).status).toBe(200);
    refused(await h.call(v1('/queries/top-snippets'), { collection_name: 'strict', query: 'a'.repeat(4097), k: 1 }, f.keyA));
    // Astral characters count once each on top-snippets.
    expect((await h.call(v1('/queries/top-snippets'), { collection_name: 'strict', query: '😀'.repeat(4096), k: 1 }, f.keyA)).status).toBe(200);
  });

  test('a body over the limit is refused with 413 naming the limit', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: v1('/collections/add-collection'),
      headers: { authorization: `Bearer ${f.keyA}`, 'content-type': 'application/json' },
      payload: `{"collection_name":"${'x'.repeat(BODY_LIMIT_BYTES)}"}`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().detail).toContain(String(BODY_LIMIT_BYTES));
  });
});

describe('dashboard API', () => {
  test('5 MB organization and API key names and 10 MB marketplace tokens are refused; get-user stays small', async () => {
    const user = await h.signIn('strict@example.com');
    refused(await h.call('/api/organizations/add-organization', { name: 'n'.repeat(5_000_000) }, user.token));
    refused(await h.call('/api/organizations/add-organization', { name: 'Org', aws_marketplace_token: 't'.repeat(10_000_000) }, user.token));
    refused(await h.call('/api/organizations/add-organization', { name: 'Org\u0000' }, user.token));
    const org = (await h.call('/api/organizations/add-organization', { name: 'Org' }, user.token)).body;
    refused(await h.call('/api/organizations/update-organization', { organization_id: org.id, name: 'n'.repeat(5_000_000) }, user.token));
    refused(await h.call('/api/organizations/api-keys/add-api-key', { organization_id: org.id, name: 'k'.repeat(5_000_000), permission: 'all' }, user.token));
    const me = await h.call('/api/users/get-user', undefined, user.token);
    expect(me.body.organizations.map((o: { name: string }) => o.name)).toEqual(['Org']);
    expect(JSON.stringify(me.body).length).toBeLessThan(1000);
  });

  test('the local sign-in invite field is bounded', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/auth/local/login',
      payload: { name: 'Local', email: 'local@example.com', invite: 'i'.repeat(10_000) },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toMatch(/invite/);
  });
});

describe("the fuzzer's inputs (issue #43): 4xx, never 500", () => {
  const raw = (method: 'GET' | 'POST', url: string, payload?: string, token?: string) =>
    h.app.inject({ method, url, payload, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const refusedRaw = (response: { statusCode: number; json(): { detail?: unknown } }, pattern: RegExp) => {
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json().detail)).toMatch(pattern);
  };

  test('a lone surrogate anywhere in a body is refused: local sign-in, rerank documents, metadata keys', async () => {
    refusedRaw(await raw('POST', '/auth/local/login', '{"name":"Local","email":"local@example.com","invite":"\\ud800"}'), /invite: must be well-formed Unicode/);
    refusedRaw(await raw('POST', v1('/models/rerank'), '{"model":"zerank-2","query":"q","documents":["ok","\\udc00"]}', f.keyA), /well-formed Unicode/);
    const metadataKey = '{"collection_name":"strict","path":"m.txt","content":{"type":"text","text":"x"},"metadata":{"\\ud800":"v"}}';
    refusedRaw(await raw('POST', v1('/documents/add-document'), metadataKey, f.keyA), /well-formed Unicode/);
  });

  test('NUL is refused in a path parameter, a query, and any body string (created_by of the admin API)', async () => {
    const checkout = await raw('GET', '/billing/checkout/a%00b');
    refusedRaw(checkout, /checkoutId: must not contain NUL/);
    refusedRaw(await raw('GET', v1('/documents/get-document?token=a%00b')), /NUL/);
    const organizationId = '6d1f0e02-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
    expect((await h.call(v1('/admin/create-organization'), { organization_id: organizationId }, ADMIN_KEY)).status).toBe(201);
    const key = await h.call(v1('/admin/add-api-key'), { organization_id: organizationId, name: 'k', permission: 'all', created_by: 'a\u0000b' }, ADMIN_KEY);
    refused(key);
    expect(JSON.stringify(key.body.detail)).toMatch(/created_by/);
    expect((await h.call(v1('/admin/list-api-keys'), { organization_id: organizationId }, ADMIN_KEY)).body.api_keys).toEqual([]);
  });

  test('a metadata filter nested 5,000 or 2,000 deep is refused with 422 naming the limit', async () => {
    for (const depth of [5000, 2000]) {
      const filter = '{"$and":['.repeat(depth) + '{"a":"x"}' + ']}'.repeat(depth);
      const response = await raw('POST', v1('/queries/top-documents'), `{"collection_name":"strict","query":"q","k":1,"filter":${filter}}`, f.keyA);
      refusedRaw(response, /nest more than \d+ levels/);
    }
    // Within the body's limit, the filter's own limit speaks.
    let filter: object = { a: 'x' };
    for (let i = 0; i < 25; i++) filter = { $and: [filter] };
    refused(await h.call(v1('/queries/top-documents'), { collection_name: 'strict', query: 'q', k: 1, filter }, f.keyA));
  });

  test('collection names of spaces or invisible characters only are refused with a clear detail', async () => {
    for (const name of ['   ', '\u200b\u200b', '\u3164', '\u2800\u2800', '\u00a0 \ufe0f', '\u0301']) {
      const response = await h.call(v1('/collections/add-collection'), { collection_name: name }, f.keyA);
      refused(response);
      expect(JSON.stringify(response.body.detail)).toContain('visible character');
    }
    expect((await h.call(v1('/collections/get-collection-list'), {}, f.keyA)).body.collection_names).not.toContain('   ');
    expect((await h.call(v1('/collections/add-collection'), { collection_name: ' padded name ' }, f.keyA)).status).toBe(201);
  });

  test('an unknown admin key is 401, like any unknown credential', async () => {
    const response = await h.call(v1('/admin/get-organization'), { organization_id: '6d1f0e02-3a4b-4c5d-8e9f-0a1b2c3d4e5f' }, 'not-the-admin-key-at-all');
    expect(response.status).toBe(401);
    expect(response.body.detail).toBeTruthy();
  });
});

describe('OpenAPI description', () => {
  test('states the limits and every 4xx of a route', async () => {
    const spec = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const addDocument = spec.paths['/v1/documents/add-document'].post;
    expect(Object.keys(addDocument.responses)).toEqual(expect.arrayContaining(['200', '201', '401', '403', '404', '409', '413', '422']));
    const body = addDocument.requestBody.content['application/json'].schema;
    expect(body.properties.path.maxLength).toBe(1024);
    expect(body.properties.collection_name.maxLength).toBe(1024);
    expect(Object.keys(spec.paths['/v1/queries/top-snippets'].post.responses)).toEqual(expect.arrayContaining(['401', '404', '413', '422', '429']));
    expect(Object.keys(spec.paths['/v1/documents/get-page-image'].get.responses)).toEqual(expect.arrayContaining(['404', '422']));
    const rerank = spec.paths['/v1/models/rerank'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(rerank.properties.top_n)).toContain('"minimum":1');
    for (const operation of ['create-organization', 'get-organization', 'update-organization', 'add-api-key', 'list-api-keys', 'update-api-key', 'delete-api-key']) {
      expect(Object.keys(spec.paths[`/v1/admin/${operation}`].post.responses)).toEqual(expect.arrayContaining(['401', '403', '422']));
    }
  });
});

describe('request log', () => {
  test('a logged request for a file link or a checkout carries no token', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp(createAppContext({ ...h.config, logLevel: 'info' }, h.database), { logStream: stream });
    const secret = 'eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.c2lnbmF0dXJl';
    await app.inject({ method: 'GET', url: `/v1/documents/get-document?token=${secret}` });
    await app.inject({ method: 'GET', url: `/v1/documents/get-page-image?token=${secret}` });
    await app.inject({ method: 'GET', url: `/billing/checkout/${secret}` });
    await app.inject({ method: 'GET', url: `/auth/google/login?invite=${secret}` });
    // Parameter names and paths as the router reads them: encoded, with `+`, in another case.
    await app.inject({ method: 'GET', url: `/v1/documents/get-document?%74oken=${secret}` });
    await app.inject({ method: 'GET', url: `/v1/documents/get-page-image?page=1&t%6F%6Ben=${secret}` });
    await app.inject({ method: 'GET', url: `/auth/google/login?Invite=${secret}` });
    await app.inject({ method: 'GET', url: `/billing/%63heckout/${secret}` });
    await app.inject({ method: 'POST', url: '/v1/collections/get-collection-list', headers: { authorization: `Bearer ${f.keyA}` }, payload: {} });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/v1/documents/get-document?token=[redacted]');
    expect(log).toContain('/billing/checkout/[redacted]');
    expect(log).toContain('/v1/documents/get-document?%74oken=[redacted]');
    expect(log).toContain('get-page-image?page=1&t%6F%6Ben=[redacted]');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(f.keyA);
  });
});
