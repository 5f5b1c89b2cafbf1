import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addApiKey, VERIFIED_KEY_TTL_MS } from '../src/domain/api-keys.ts';
import { bootstrap } from '../src/domain/bootstrap.ts';
import { type Harness, startHarness } from './harness.ts';

// Verified API keys are remembered for a moment (domain/api-keys.ts): a key revoked on this server
// must still stop working with the very next request, and one revoked elsewhere within the bound.

const ADMIN_KEY = 'admin-key-0123456789abcdef';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ SIFT_ADMIN_KEY: ADMIN_KEY });
});
afterAll(async () => {
  await h.close();
});

const list = (key: string) => h.call('/v1/collections/get-collection-list', {}, key);

async function organization(name: string) {
  const owner = await bootstrap(h.database, h.keyring, { email: `${name}@example.com`, name, organizationName: name });
  const session = (await h.signIn(`${name}@example.com`)).token;
  const extra = await addApiKey(h.database, { keyring: h.keyring, userId: owner.userId }, { organization_id: owner.organizationId, name: 'extra', permission: 'all' });
  return { ...owner, session, extra };
}

describe('a revoked API key stops working', () => {
  test('deleted from the dashboard: refused with the next request', async () => {
    const org = await organization('dashboard-delete');
    expect((await list(org.extra.api_key)).status).toBe(200);
    expect((await list(org.extra.api_key)).status).toBe(200);
    const deleted = await h.call('/api/organizations/api-keys/delete-api-key', { organization_id: org.organizationId, api_key_id: org.extra.id }, org.session);
    expect(deleted.status).toBe(200);
    expect((await list(org.extra.api_key)).status).toBe(401);
    // The organization's other key is untouched.
    expect((await list(org.apiKey)).status).toBe(200);
  });

  test('made read-only from the dashboard: writes refused with the next request', async () => {
    const org = await organization('dashboard-read-only');
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'one' }, org.extra.api_key)).status).toBe(201);
    await h.call('/api/organizations/api-keys/update-api-key', { organization_id: org.organizationId, api_key_id: org.extra.id, permission: 'read_only' }, org.session);
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'two' }, org.extra.api_key)).status).toBe(403);
    expect((await list(org.extra.api_key)).status).toBe(200);
  });

  test('deleted or made read-only through the admin API: refused with the next request', async () => {
    const org = await organization('admin-revoke');
    expect((await list(org.extra.api_key)).status).toBe(200);
    await h.call('/v1/admin/update-api-key', { organization_id: org.organizationId, api_key_id: org.extra.id, permission: 'read_only' }, ADMIN_KEY);
    expect((await h.call('/v1/collections/add-collection', { collection_name: 'x' }, org.extra.api_key)).status).toBe(403);
    expect((await h.call('/v1/admin/delete-api-key', { organization_id: org.organizationId, api_key_id: org.extra.id }, ADMIN_KEY)).status).toBe(200);
    expect((await list(org.extra.api_key)).status).toBe(401);
  });

  test('its organization deleted: every key refused with the next request', async () => {
    const org = await organization('organization-delete');
    expect((await list(org.apiKey)).status).toBe(200);
    expect((await list(org.extra.api_key)).status).toBe(200);
    expect((await h.call('/api/organizations/delete-organization', { organization_id: org.organizationId }, org.session)).status).toBe(200);
    expect((await list(org.apiKey)).status).toBe(401);
    expect((await list(org.extra.api_key)).status).toBe(401);
  });

  test('deleted by another server of the installation: refused once the remembered verification has run out', async () => {
    const org = await organization('elsewhere');
    expect((await list(org.extra.api_key)).status).toBe(200);
    // Straight in the database, as another server (or process) would: this one is not told.
    await h.database.db.deleteFrom('api_keys').where('id', '=', org.extra.id).execute();
    await new Promise((resolve) => setTimeout(resolve, VERIFIED_KEY_TTL_MS + 50));
    expect((await list(org.extra.api_key)).status).toBe(401);
  });

  test('a key just added works at once, and an unknown key is refused every time', async () => {
    const org = await organization('fresh');
    expect((await list('sift_not-a-key')).status).toBe(401);
    const added = await addApiKey(h.database, { keyring: h.keyring, userId: org.userId }, { organization_id: org.organizationId, name: 'new', permission: 'all' });
    expect((await list(added.api_key)).status).toBe(200);
    expect((await list('sift_not-a-key')).status).toBe(401);
  });
});
