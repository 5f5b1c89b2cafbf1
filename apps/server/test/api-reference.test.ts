import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('the OpenAPI description is generated from the contracts and lists both APIs', async () => {
  const response = await h.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  const spec = response.json();
  expect(spec.openapi).toMatch(/^3\./);
  for (const path of [
    '/api/users/get-user',
    '/api/organizations/get-info',
    '/api/organizations/add-organization',
    '/api/organizations/users/invite-user',
    '/api/organizations/users/accept-invite',
    '/api/organizations/api-keys/update-api-key',
    '/v1/documents/add-document',
    '/v1/queries/top-snippets',
  ]) {
    expect(Object.keys(spec.paths)).toContain(path);
  }
  const addKey = spec.paths['/api/organizations/api-keys/add-api-key'].post;
  expect(addKey.requestBody.content['application/json'].schema.properties.permission.enum).toEqual(['all', 'read_only']);
});

test('a browsable reference is served at /docs', async () => {
  const response = await h.app.inject({ method: 'GET', url: '/docs/' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/html');
});

test('unknown API paths answer 404 with a detail, not the dashboard', async () => {
  const response = await h.app.inject({ method: 'POST', url: '/api/nothing-here', payload: {} });
  expect(response.statusCode).toBe(404);
  expect(response.json().detail).toContain('Not Found');
});
