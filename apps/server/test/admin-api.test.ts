import { randomUUID } from 'node:crypto';
import ZeroEntropy, { AuthenticationError } from 'zeroentropy';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/http/app.ts';
import { createAppContext } from '../src/http/context.ts';
import { type Harness, startHarness } from './harness.ts';
import { providerFixtures } from './provider-fixtures.ts';

// The admin API (/v1/admin/*) answers only to SIFT_ADMIN_KEY.

const ADMIN_KEY = 'admin-key-0123456789abcdef';
let h: Harness;
let f: Awaited<ReturnType<typeof providerFixtures>>;
beforeAll(async () => {
  h = await startHarness({ SIFT_ADMIN_KEY: ADMIN_KEY });
  f = await providerFixtures(h);
});
afterAll(async () => {
  await f.workers.stop();
  await h.close();
});

const admin = (operation: string, body: object, token: string | undefined = ADMIN_KEY) => h.call(`/v1/admin/${operation}`, body, token);

describe('admin API with the admin key', () => {
  test('provisions an organization and its keys, which then work on the provider API', async () => {
    const organizationId = randomUUID();
    expect((await admin('create-organization', { organization_id: organizationId })).status).toBe(201);
    expect((await admin('create-organization', { organization_id: organizationId })).status).toBe(200);

    const organization = await admin('get-organization', { organization_id: organizationId });
    expect(organization.body).toEqual({
      organization_id: organizationId,
      name: organizationId,
      subscription_tier: 'free',
      override_bpm_fast: null,
      override_bpm_slow: null,
      override_max_bytes_per_request: null,
      zdr: false,
    });

    const added = await admin('add-api-key', { organization_id: organizationId, name: 'platform', permission: 'all', created_by: 'Acme platform' });
    expect(added.status).toBe(201);
    const apiKey = added.body.api_key as string;
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'provisioned' }, apiKey)).status).toBe(201);

    const listed = await admin('list-api-keys', { organization_id: organizationId });
    expect(listed.body.api_keys).toEqual([
      { id: expect.any(String), created_at: expect.any(String), name: 'platform', permission: 'all', created_by: 'Acme platform', api_key: apiKey },
    ]);
    const keyId = listed.body.api_keys[0].id as string;

    expect((await admin('update-api-key', { organization_id: organizationId, api_key_id: keyId, permission: 'read_only', name: 'reader' })).status).toBe(200);
    expect((await admin('list-api-keys', { organization_id: organizationId })).body.api_keys[0]).toMatchObject({ name: 'reader', permission: 'read_only' });
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'refused' }, apiKey)).status).toBe(403);

    expect((await admin('delete-api-key', { organization_id: organizationId, api_key_id: keyId })).status).toBe(200);
    expect((await admin('delete-api-key', { organization_id: organizationId, api_key_id: keyId })).status).toBe(404);
    expect((await h.call('/v1/collections/get-collection-list', {}, apiKey)).status).toBe(401);
  });

  test('update-organization sets the tier, the overrides (0 removes one) and ZDR; the reranker honours the override', async () => {
    const organizationId = randomUUID();
    await admin('create-organization', { organization_id: organizationId });
    const apiKey = (await admin('add-api-key', { organization_id: organizationId, name: 'k', permission: 'all' })).body.api_key;
    const update = await admin('update-organization', { organization_id: organizationId, subscription_tier: 'teams', override_bpm_fast: 1000, override_max_bytes_per_request: 900, zdr: true });
    expect(update.status).toBe(200);
    expect((await admin('get-organization', { organization_id: organizationId })).body).toMatchObject({
      subscription_tier: 'teams',
      override_bpm_fast: 1000,
      override_bpm_slow: null,
      override_max_bytes_per_request: 900,
      zdr: true,
    });
    // 150 + 1 + 250 bytes per document: two fit the 900-byte request cap, three do not.
    const document = 'd'.repeat(250);
    expect((await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'q', documents: [document, document, document] }, apiKey)).status).toBe(422);
    expect((await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'q', documents: [document, document] }, apiKey)).status).toBe(200);
    // The 1000-byte budget is spent: the next call waits.
    const limited = await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'q', documents: [document] }, apiKey);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();

    await admin('update-organization', { organization_id: organizationId, subscription_tier: 'free', override_bpm_fast: 0, override_max_bytes_per_request: 0 });
    expect((await admin('get-organization', { organization_id: organizationId })).body).toMatchObject({
      subscription_tier: 'free',
      override_bpm_fast: null,
      override_max_bytes_per_request: null,
      zdr: true,
    });
    expect((await h.call('/v1/models/rerank', { model: 'zerank-2', query: 'q', documents: [document, document, document] }, apiKey)).status).toBe(200);
  });

  test('an organization made by the admin appears in the dashboard named by its id until renamed', async () => {
    const organizationId = randomUUID();
    await admin('create-organization', { organization_id: organizationId });
    const user = await h.signIn('admin-made@example.com');
    // Its first owner joins through the rules of the spec: here, a membership the platform arranged.
    await h.database.db.insertInto('memberships').values({ organization_id: organizationId, user_id: user.id, permission: 'OWNER', created_at: new Date().toISOString() }).execute();
    const me = await h.call('/api/users/get-user', undefined, user.token);
    expect(me.body.organizations).toEqual([{ id: organizationId, name: organizationId, permission: 'OWNER', created_at: expect.any(String) }]);
    await h.call('/api/organizations/update-organization', { organization_id: organizationId, name: 'Renamed' }, user.token);
    expect((await admin('get-organization', { organization_id: organizationId })).body.name).toBe('Renamed');
  });

  test('unknown organizations and keys are 404; bad bodies 422', async () => {
    const missing = randomUUID();
    for (const operation of ['get-organization', 'update-organization', 'list-api-keys']) {
      const response = await admin(operation, { organization_id: missing });
      expect(response.status).toBe(404);
      expect(response.body.detail).toBe('Organization not found.');
    }
    expect((await admin('add-api-key', { organization_id: missing, name: 'k', permission: 'all' })).status).toBe(404);
    expect((await admin('update-api-key', { organization_id: f.organizationA, api_key_id: randomUUID(), name: 'x' })).status).toBe(404);
    expect((await admin('create-organization', { organization_id: 'not-a-uuid' })).status).toBe(422);
    expect((await admin('update-organization', { organization_id: missing, override_bpm_fast: -1 })).status).toBe(422);
  });
});

describe('admin API without the admin key', () => {
  const operations = ['create-organization', 'get-organization', 'update-organization', 'add-api-key', 'list-api-keys', 'update-api-key', 'delete-api-key'];

  test("an organization's API key, unknown to the admin API, gets 401 and nothing changes", async () => {
    const organizationId = randomUUID();
    for (const operation of operations) {
      const response = await admin(operation, { organization_id: organizationId, api_key_id: randomUUID(), name: 'x', permission: 'all' }, f.keyA);
      expect(response.status, operation).toBe(401);
      expect(response.body.detail).toBe("Only the installation's admin key may call the admin API.");
    }
    expect((await admin('get-organization', { organization_id: organizationId })).status).toBe(404);
  });

  test('no key gets 401', async () => {
    for (const operation of operations) expect((await h.call(`/v1/admin/${operation}`, { organization_id: randomUUID() })).status, operation).toBe(401);
  });

  test('an installation without SIFT_ADMIN_KEY refuses every admin call', async () => {
    const plain = await buildApp(createAppContext({ ...h.config, adminKey: undefined }, h.database));
    try {
      const response = await plain.inject({ method: 'POST', url: '/v1/admin/create-organization', payload: { organization_id: randomUUID() }, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(response.statusCode).toBe(403);
      expect(response.json().detail).toMatch(/SIFT_ADMIN_KEY/);
    } finally {
      await plain.close();
    }
  });
});

describe('admin API through the official SDK', () => {
  test("the SDK's generic client.post provisions an organization and a key (docs/api.md's example)", async () => {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new ZeroEntropy({ apiKey: ADMIN_KEY, baseURL: `${address}/v1`, maxRetries: 0 });
    const organizationId = randomUUID();
    await client.post('/admin/create-organization', { body: { organization_id: organizationId } });
    const { api_key } = await client.post<unknown, { api_key: string }>('/admin/add-api-key', {
      body: { organization_id: organizationId, name: 'production', permission: 'all' },
    });
    const tenant = new ZeroEntropy({ apiKey: api_key, baseURL: `${address}/v1`, maxRetries: 0 });
    await tenant.collections.add({ collection_name: 'tenant-docs' });
    expect((await tenant.collections.getList()).collection_names).toEqual(['tenant-docs']);
    const refused = new ZeroEntropy({ apiKey: api_key, baseURL: `${address}/v1`, maxRetries: 0 });
    await expect(refused.post('/admin/get-organization', { body: { organization_id: organizationId } })).rejects.toBeInstanceOf(AuthenticationError);
  });
});
