import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const preflight = (origin: string) =>
  h.app.inject({
    method: 'OPTIONS',
    url: '/v1/collections/get-collection-list',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });

test('the local dev dashboards (ports 5173 and 4173) may call the provider API', async () => {
  for (const origin of ['http://localhost:5173', 'http://localhost:4173']) {
    const response = await preflight(origin);
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
  }
});

test('other origins get no CORS grant', async () => {
  const response = await preflight('https://evil.example');
  expect(response.headers['access-control-allow-origin']).toBeUndefined();
});
