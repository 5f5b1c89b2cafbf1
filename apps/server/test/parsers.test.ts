import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addApiKey } from '../src/domain/api-keys.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type Harness, startHarness } from './harness.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', 'ingest', name)).toString('base64');

let h: Harness;
let apiKey: string;
let readOnlyKey: string;
beforeAll(async () => {
  h = await startHarness();
  const org = await bootstrap(h.database, h.keyring, { email: 'parse@example.com', name: 'Parse', organizationName: 'Parse' });
  apiKey = org.apiKey;
  readOnlyKey = (await addApiKey(h.database, { keyring: h.keyring, userId: org.userId }, { organization_id: org.organizationId, name: 'r', permission: 'read_only' }))
    .api_key;
});
afterAll(() => h.close());

test('parse-document returns one page per PDF page and stores nothing', async () => {
  const before = await h.database.db.selectFrom('documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const response = await h.call('/v1/parsers/parse-document', { base64_data: fixture('two-pages.pdf') }, apiKey);
  expect(response.status).toBe(200);
  expect(response.body.pages).toHaveLength(2);
  expect(response.body.pages[0]).toContain('Page one: the quick brown fox.');
  expect(response.body.pages[1]).toContain('jumps over the lazy dog');
  const after = await h.database.db.selectFrom('documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));
});

test('plain text and Markdown come back as one page; a read_only key may parse', async () => {
  const response = await h.call('/v1/parsers/parse-document', { base64_data: fixture('notes.md') }, readOnlyKey);
  expect(response.status).toBe(200);
  expect(response.body.pages).toEqual([readFileSync(join(import.meta.dirname, 'fixtures', 'ingest', 'notes.md'), 'utf8')]);
});

test('an unreadable file is 422 with the parser reason; bad base64 or no body is 422; no key is 401', async () => {
  const damaged = await h.call('/v1/parsers/parse-document', { base64_data: fixture('damaged.pdf') }, apiKey);
  expect(damaged.status).toBe(422);
  expect(typeof damaged.body.detail).toBe('string');
  expect(damaged.body.detail.length).toBeGreaterThan(0);
  const empty = await h.call('/v1/parsers/parse-document', { base64_data: '' }, apiKey);
  expect(empty.status).toBe(422);
  expect(empty.body.detail).toBe('The file is empty.');
  const notBase64 = await h.call('/v1/parsers/parse-document', { base64_data: 'not base64!' }, apiKey);
  expect(notBase64.status).toBe(422);
  expect(notBase64.body.detail[0].loc).toEqual(['body', 'base64_data']);
  expect((await h.call('/v1/parsers/parse-document', {}, apiKey)).status).toBe(422);
  expect((await h.call('/v1/parsers/parse-document', { base64_data: fixture('notes.md') })).status).toBe(401);
});

test("the server's parse bounds (SIFT_PARSE_TIMEOUT_S) are those parse-document reads with", async () => {
  const hurried = await startHarness({ SIFT_PARSE_TIMEOUT_S: '0.001' });
  try {
    const { apiKey: key } = await bootstrap(hurried.database, hurried.keyring, { email: 'hurried@example.com', name: 'Hurried', organizationName: 'Hurried' });
    const response = await hurried.call('/v1/parsers/parse-document', { base64_data: fixture('words.png') }, key);
    expect(response.status).toBe(422);
    expect(response.body.detail).toBe('Reading the PNG image took longer than 0.001 seconds.');
  } finally {
    await hurried.close();
  }
});
