import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('a signed-in user creates an organization and sees it', async () => {
  const alice = await h.signIn('alice@example.com', 'Alice');
  const created = await h.call('/api/organizations/add-organization', { name: '  Acme  ' }, alice.token);
  expect(created.status).toBe(200);
  expect(created.body.name).toBe('Acme');
  const me = await h.call('/api/users/get-user', undefined, alice.token);
  expect(me.body.organizations).toHaveLength(1);
});
