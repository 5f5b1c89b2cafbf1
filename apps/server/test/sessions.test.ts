import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hs256Key } from '../src/auth/keyring.ts';
import { type Harness, startHarness } from './harness.ts';

// Issue #43: logout ends the session on the server, and a user can end all their sessions.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const getUser = (token: string) => h.call('/api/users/get-user', {}, token);

/** A session token as local sign-in hands it out: in the fragment of the redirect to the dashboard. */
const signInLocally = async (email: string) => {
  const response = await h.app.inject({ method: 'POST', url: '/auth/local/login', payload: { name: 'Local', email } });
  expect(response.statusCode).toBe(302);
  return /#session=(.+)$/.exec(response.headers.location as string)![1]!;
};

describe('sessions', () => {
  test('logout ends this session only: its token is refused with 401, another one of the user still works', async () => {
    const first = await signInLocally('leaving@example.com');
    const second = await signInLocally('leaving@example.com');
    expect((await getUser(first)).status).toBe(200);
    const logout = await h.call('/api/users/logout', {}, first);
    expect(logout.status).toBe(200);
    const refused = await getUser(first);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe('Invalid or expired session');
    expect((await h.call('/api/users/logout', {}, first)).status).toBe(401);
    expect((await getUser(second)).status).toBe(200);
  });

  test("ending all sessions refuses every one of the user's tokens, and no one else's", async () => {
    const user = await h.signIn('everywhere@example.com');
    const laptop = await signInLocally('everywhere@example.com');
    const other = await h.signIn('someone-else@example.com');
    const ended = await h.call('/api/users/end-all-sessions', {}, laptop);
    expect(ended.status).toBe(200);
    expect(ended.body.sessions_ended).toBe(2);
    expect((await getUser(user.token)).status).toBe(401);
    expect((await getUser(laptop)).status).toBe(401);
    expect((await getUser(other.token)).status).toBe(200);
    // Signing in again starts a new session.
    expect((await getUser(await signInLocally('everywhere@example.com'))).status).toBe(200);
  });

  test('a signed token that names no session (made before sessions were recorded, or forged with the key) is refused', async () => {
    const user = await h.signIn('old-token@example.com');
    const key = await hs256Key(h.keyring.session);
    const withoutSession = await new SignJWT({ typ: 'session' }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setExpirationTime('1h').sign(key);
    const unknownSession = await new SignJWT({ typ: 'session', sid: 'no-such-session' }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setExpirationTime('1h').sign(key);
    expect((await getUser(withoutSession)).status).toBe(401);
    expect((await getUser(unknownSession)).status).toBe(401);
  });
});
