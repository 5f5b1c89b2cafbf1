import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An owner with an organization, a member of it, and a key. */
async function team(prefix: string) {
  const owner = await h.signIn(`${prefix}-owner@example.com`, `${prefix} Owner`);
  const member = await h.signIn(`${prefix}-member@example.com`, `${prefix} Member`);
  const org = (await h.call('/api/organizations/add-organization', { name: `${prefix} Org` }, owner.token)).body;
  const { invite_url } = (await h.call('/api/organizations/users/invite-user', { organization_id: org.id, email: member.email }, owner.token)).body;
  const inviteJwt = new URL(invite_url).searchParams.get('invite')!;
  expect((await h.call('/api/organizations/users/accept-invite', { invite_jwt: inviteJwt }, member.token)).status).toBe(200);
  const key = (await h.call('/api/organizations/api-keys/add-api-key', { organization_id: org.id, name: 'k', permission: 'all' }, owner.token)).body;
  return { owner, member, org, key };
}

describe('session and organizations', () => {
  test('get-user returns the user and their organizations with spec shapes', async () => {
    const { owner, org } = await team('shape');
    const { status, body } = await h.call('/api/users/get-user', undefined, owner.token);
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ name: 'shape Owner', email: 'shape-owner@example.com' });
    expect(body.user.id).toMatch(uuid);
    expect(body.organizations).toEqual([{ id: org.id, name: 'shape Org', permission: 'OWNER', created_at: expect.any(String) }]);
    expect(new Date(body.organizations[0].created_at).toISOString()).toBe(body.organizations[0].created_at);
  });

  test('get-info shows members, keys (whole, with their creator) and pending invites', async () => {
    const { owner, member, org, key } = await team('info');
    await h.call('/api/organizations/users/invite-user', { organization_id: org.id, email: 'Pending@Example.com ', permission: 'OWNER' }, owner.token);
    const { body } = await h.call('/api/organizations/get-info', { organization_id: org.id }, member.token);
    expect(body.users.map((u: { email: string; permission: string }) => [u.email, u.permission])).toEqual([
      [owner.email, 'OWNER'],
      [member.email, 'MEMBER'],
    ]);
    expect(body.api_keys).toEqual([
      { id: key.id, name: 'k', api_key: key.api_key, created_at: key.created_at, permission: 'all', created_by: 'info Owner' },
    ]);
    expect(body.invited_emails).toEqual([{ email: 'pending@example.com', permission: 'OWNER' }]);
  });

  test('organization names are trimmed and must not be blank', async () => {
    const user = await h.signIn('names@example.com');
    const blank = await h.call('/api/organizations/add-organization', { name: '   ' }, user.token);
    expect(blank.status).toBe(422);
    expect(blank.body.detail).toMatch(/name/);
    const created = await h.call('/api/organizations/add-organization', { name: ' Spaced ', aws_marketplace_token: 't' }, user.token);
    expect(created.body).toMatchObject({ name: 'Spaced', permission: 'OWNER' });
    expect((await h.call('/api/organizations/update-organization', { organization_id: created.body.id, name: ' ' }, user.token)).status).toBe(422);
    await h.call('/api/organizations/update-organization', { organization_id: created.body.id, name: 'Renamed' }, user.token);
    expect((await h.call('/api/organizations/get-info', { organization_id: created.body.id }, user.token)).body.name).toBe('Renamed');
  });

  test('deleting an organization removes it for everyone', async () => {
    const { owner, member, org } = await team('delete');
    expect((await h.call('/api/organizations/delete-organization', { organization_id: org.id }, owner.token)).status).toBe(200);
    expect((await h.call('/api/users/get-user', undefined, member.token)).body.organizations).toEqual([]);
    expect((await h.call('/api/organizations/get-info', { organization_id: org.id }, owner.token)).status).toBe(404);
  });
});

describe('invites', () => {
  test('the invite link carries a signed, expiring token whose payload is exactly the spec payload', async () => {
    const { owner, org } = await team('payload');
    const { body } = await h.call('/api/organizations/users/invite-user', { organization_id: org.id, email: 'x@example.com' }, owner.token);
    const payload = decodeJwt(new URL(body.invite_url).searchParams.get('invite')!);
    expect(Object.keys(payload).sort()).toEqual(['exp', 'from_email', 'org_id', 'org_name', 'token']);
    expect(payload).toMatchObject({ org_id: org.id, org_name: 'payload Org', from_email: owner.email });
    expect(payload.exp! * 1000).toBeGreaterThan(Date.now());
  });

  test('a removed invite can no longer be accepted; a forged one never', async () => {
    const { owner, org } = await team('revoke');
    const guest = await h.signIn('guest@example.com');
    const { body } = await h.call('/api/organizations/users/invite-user', { organization_id: org.id, email: guest.email }, owner.token);
    const inviteJwt = new URL(body.invite_url).searchParams.get('invite')!;
    await h.call('/api/organizations/users/delete-invite-user', { organization_id: org.id, email: guest.email }, owner.token);
    const refused = await h.call('/api/organizations/users/accept-invite', { invite_jwt: inviteJwt }, guest.token);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe('This invitation is invalid or has expired.');
    const [header, , signature] = inviteJwt.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ org_id: org.id, token: 'x' })).toString('base64url')}.${signature}`;
    expect((await h.call('/api/organizations/users/accept-invite', { invite_jwt: forged }, guest.token)).status).toBe(422);
  });

  test('accepting joins with the invited permission and clears the invite', async () => {
    const { owner, org } = await team('accept');
    const newcomer = await h.signIn('newcomer@example.com', 'Newcomer');
    const { body } = await h.call('/api/organizations/users/invite-user', { organization_id: org.id, email: newcomer.email, permission: 'OWNER' }, owner.token);
    const accepted = await h.call('/api/organizations/users/accept-invite', { invite_jwt: new URL(body.invite_url).searchParams.get('invite') }, newcomer.token);
    expect(accepted.body).toMatchObject({ id: org.id, permission: 'OWNER' });
    const info = (await h.call('/api/organizations/get-info', { organization_id: org.id }, owner.token)).body;
    expect(info.invited_emails).toEqual([]);
  });

  test('inviting a current member is refused with a clear detail', async () => {
    const { owner, member, org } = await team('dup');
    const { status, body } = await h.call('/api/organizations/users/invite-user', { organization_id: org.id, email: member.email }, owner.token);
    expect(status).toBe(422);
    expect(body.detail).toContain('already a member');
  });
});

describe('members', () => {
  test('an owner cannot change their own permission', async () => {
    const { owner, org } = await team('self');
    const { status, body } = await h.call('/api/organizations/users/update-user', { organization_id: org.id, user_id: owner.id, permission: 'MEMBER' }, owner.token);
    expect(status).toBe(403);
    expect(body.detail).toBe('You cannot change your own permission.');
  });

  test('owners change permissions and remove members; members may leave', async () => {
    const { owner, member, org } = await team('manage');
    await h.call('/api/organizations/users/update-user', { organization_id: org.id, user_id: member.id, permission: 'OWNER' }, owner.token);
    let info = (await h.call('/api/organizations/get-info', { organization_id: org.id }, owner.token)).body;
    expect(info.users.find((u: { id: string }) => u.id === member.id).permission).toBe('OWNER');
    expect((await h.call('/api/organizations/users/remove-user', { organization_id: org.id, user_id: owner.id }, owner.token)).status).toBe(200);
    info = (await h.call('/api/organizations/get-info', { organization_id: org.id }, member.token)).body;
    expect(info.users.map((u: { id: string }) => u.id)).toEqual([member.id]);
  });

  test('the last owner cannot leave', async () => {
    const { owner, org } = await team('last');
    const { status, body } = await h.call('/api/organizations/users/remove-user', { organization_id: org.id, user_id: owner.id }, owner.token);
    expect(status).toBe(403);
    expect(body.detail).toContain('last owner');
  });
});

describe('API keys', () => {
  test('new keys default to read_only; names are trimmed; rename or change permission, not both', async () => {
    const { owner, org } = await team('keys');
    const added = await h.call('/api/organizations/api-keys/add-api-key', { organization_id: org.id, name: '  CI  ' }, owner.token);
    expect(added.body).toMatchObject({ name: 'CI', permission: 'read_only' });
    expect(added.body.id).toMatch(uuid);
    const both = await h.call('/api/organizations/api-keys/update-api-key', { organization_id: org.id, api_key_id: added.body.id, name: 'x', permission: 'all' }, owner.token);
    expect(both.status).toBe(422);
    const blank = await h.call('/api/organizations/api-keys/update-api-key', { organization_id: org.id, api_key_id: added.body.id, name: '  ' }, owner.token);
    expect(blank.status).toBe(422);
    await h.call('/api/organizations/api-keys/update-api-key', { organization_id: org.id, api_key_id: added.body.id, permission: 'all' }, owner.token);
    await h.call('/api/organizations/api-keys/update-api-key', { organization_id: org.id, api_key_id: added.body.id, name: 'Deploy' }, owner.token);
    const info = (await h.call('/api/organizations/get-info', { organization_id: org.id }, owner.token)).body;
    expect(info.api_keys.find((k: { id: string }) => k.id === added.body.id)).toMatchObject({ name: 'Deploy', permission: 'all' });
    await h.call('/api/organizations/api-keys/delete-api-key', { organization_id: org.id, api_key_id: added.body.id }, owner.token);
    const gone = await h.call('/api/organizations/api-keys/delete-api-key', { organization_id: org.id, api_key_id: added.body.id }, owner.token);
    expect(gone.status).toBe(404);
  });

  test('keys are stored hashed and encrypted, never in the clear', async () => {
    const { key } = await team('stored');
    const row = await h.database.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.api_key);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('authorization matrix', () => {
  type Case = { path: string; body: (ctx: Awaited<ReturnType<typeof team>>) => object; member: 'allowed' | 'forbidden' };
  const cases: Case[] = [
    { path: '/api/organizations/get-info', body: ({ org }) => ({ organization_id: org.id }), member: 'allowed' },
    { path: '/api/organizations/update-organization', body: ({ org }) => ({ organization_id: org.id, name: 'N' }), member: 'forbidden' },
    { path: '/api/organizations/users/invite-user', body: ({ org }) => ({ organization_id: org.id, email: 'm@example.com' }), member: 'forbidden' },
    { path: '/api/organizations/users/update-user', body: ({ org, member }) => ({ organization_id: org.id, user_id: member.id, permission: 'MEMBER' }), member: 'forbidden' },
    { path: '/api/organizations/users/delete-invite-user', body: ({ org }) => ({ organization_id: org.id, email: 'pending@example.com' }), member: 'forbidden' },
    { path: '/api/organizations/api-keys/add-api-key', body: ({ org }) => ({ organization_id: org.id, name: 'x' }), member: 'forbidden' },
    { path: '/api/organizations/api-keys/update-api-key', body: ({ org, key }) => ({ organization_id: org.id, api_key_id: key.id, name: 'y' }), member: 'forbidden' },
    { path: '/api/organizations/api-keys/delete-api-key', body: ({ org, key }) => ({ organization_id: org.id, api_key_id: key.id }), member: 'forbidden' },
    { path: '/api/organizations/users/remove-user', body: ({ org, owner }) => ({ organization_id: org.id, user_id: owner.id }), member: 'forbidden' },
    { path: '/api/organizations/delete-organization', body: ({ org }) => ({ organization_id: org.id }), member: 'forbidden' },
  ];
  const ownerMessages: Record<string, string> = {
    '/api/organizations/api-keys/add-api-key': 'Only organization owners can manage API keys.',
    '/api/organizations/api-keys/update-api-key': 'Only organization owners can manage API keys.',
    '/api/organizations/api-keys/delete-api-key': 'Only organization owners can manage API keys.',
    '/api/organizations/users/invite-user':
      'Only organization owners can add new members. Please contact an owner to invite new users to this organization.',
  };

  for (const { path, body, member: memberRule } of cases) {
    test(`${path}: no token and bad token 401, outsider 404, member ${memberRule === 'allowed' ? '200' : '403'}, owner 200`, async () => {
      const ctx = await team(`m${path.length}${Math.random().toString(36).slice(2, 6)}`);
      await h.call('/api/organizations/users/invite-user', { organization_id: ctx.org.id, email: 'pending@example.com' }, ctx.owner.token);
      const outsider = await h.signIn(`outsider-${Math.random()}@example.com`);
      const payload = body(ctx);
      expect((await h.call(path, payload)).status).toBe(401);
      expect((await h.call(path, payload, 'not-a-jwt')).status).toBe(401);
      // The signature's second-to-last character changed for certain (its own "xx" ending passed once in 4,096 runs).
      const tampered = ctx.owner.token.slice(0, -2) + (ctx.owner.token.at(-2) === 'x' ? 'y' : 'x') + ctx.owner.token.at(-1);
      expect((await h.call(path, payload, tampered)).status).toBe(401);
      const outsiderCall = await h.call(path, payload, outsider.token);
      expect(outsiderCall.status).toBe(404);
      const asMember = await h.call(path, payload, ctx.member.token);
      expect(asMember.status).toBe(memberRule === 'allowed' ? 200 : 403);
      if (ownerMessages[path]) expect(asMember.body.detail).toBe(ownerMessages[path]);
      if (path === '/api/organizations/users/remove-user') {
        // The owner removes the member instead (removing themselves would be the last owner leaving).
        expect((await h.call(path, { organization_id: ctx.org.id, user_id: ctx.member.id }, ctx.owner.token)).status).toBe(200);
      } else {
        expect((await h.call(path, payload, ctx.owner.token)).status).toBe(200);
      }
    });
  }

  test('get-user and accept-invite need a session', async () => {
    expect((await h.call('/api/users/get-user')).status).toBe(401);
    expect((await h.call('/api/organizations/users/accept-invite', { invite_jwt: 'x' })).status).toBe(401);
    expect((await h.call('/api/organizations/add-organization', { name: 'x' })).status).toBe(401);
  });

  test('bodies that do not match the contract are 422 with a detail', async () => {
    const user = await h.signIn('contract@example.com');
    const { status, body } = await h.call('/api/organizations/get-info', { organization_id: 'not-a-uuid' }, user.token);
    expect(status).toBe(422);
    expect(typeof body.detail).toBe('string');
  });
});
