import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from './cluster.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * The real OpenID Connect code path (discovery, PKCE, state, nonce, code exchange, ID token
 * checks) against a real issuer, oidc-provider, on loopback: Google is just another issuer.
 */
let issuer: Server;
let issuerUrl: string;
let h: Harness;
let siftUrl: string;

beforeAll(async () => {
  issuer = createServer();
  await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
  issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;

  const siftPort = await freePort();
  siftUrl = `http://127.0.0.1:${siftPort}`;
  const provider = new Provider(issuerUrl, {
    clients: [
      { client_id: 'sift', client_secret: 'sift-client-secret', redirect_uris: [`${siftUrl}/auth/google/callback`], grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@idp.example`, email_verified: true, name: `User ${sub}` }),
    }),
  });
  issuer.on('request', provider.callback());

  h = await startHarness({
    OIDC_ISSUER: issuerUrl,
    OIDC_CLIENT_ID: 'sift',
    OIDC_CLIENT_SECRET: 'sift-client-secret',
    OIDC_ALLOW_INSECURE: 'true',
    PUBLIC_URL: siftUrl,
  });
  await h.app.listen({ port: siftPort, host: '127.0.0.1' });
});

afterAll(async () => {
  await h.close();
  issuer.close();
});

test('sign-in through an OpenID issuer ends on the dashboard with a session, keeping the invite', async () => {
  const login = await fetch(`${siftUrl}/auth/google/login?invite=the-invite`, { redirect: 'manual' });
  expect(login.status).toBe(302);
  const stateCookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const authorizationUrl = new URL(login.headers.get('location')!);
  expect(authorizationUrl.origin).toBe(issuerUrl);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('state')).toBeTruthy();
  expect(authorizationUrl.searchParams.get('nonce')).toBeTruthy();

  const callback = await signInAtIssuer(authorizationUrl.href, 'ada');
  expect(callback.startsWith(`${siftUrl}/auth/google/callback?`)).toBe(true);

  const finished = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
  expect(finished.status).toBe(302);
  const landing = new URL(finished.headers.get('location')!, siftUrl);
  expect(landing.pathname).toBe('/api-keys');
  expect(landing.searchParams.get('invite')).toBe('the-invite');
  const session = /session=(.+)$/.exec(landing.hash)![1]!;

  const me = await h.call('/api/users/get-user', undefined, session);
  expect(me.status).toBe(200);
  expect(me.body.user).toMatchObject({ email: 'ada@idp.example', name: 'User ada' });
});

test('a callback without the sign-in cookie (another browser, a replay) is refused', async () => {
  const login = await fetch(`${siftUrl}/auth/google/login`, { redirect: 'manual' });
  const callback = await signInAtIssuer(login.headers.get('location')!, 'eve');
  const replay = await fetch(callback, { redirect: 'manual' });
  expect(replay.status).toBe(400);
  expect(await replay.text()).toContain('Sign-in failed');
});

test('a tampered state is refused', async () => {
  const login = await fetch(`${siftUrl}/auth/google/login`, { redirect: 'manual' });
  const stateCookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const callback = new URL(await signInAtIssuer(login.headers.get('location')!, 'mallory'));
  callback.searchParams.set('state', 'forged');
  const response = await fetch(callback, { redirect: 'manual', headers: { cookie: stateCookie } });
  expect(response.status).toBe(400);
});

test('with an issuer configured, there is no local sign-in', async () => {
  const response = await fetch(`${siftUrl}/auth/local/login`, { method: 'POST', body: 'name=x&email=x@example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  expect(response.status).toBe(404);
});

/** Walks the issuer's own login and consent pages as a browser would; returns Sift's callback URL. */
async function signInAtIssuer(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!, value.join('='));
    }
  };
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    if (url.startsWith(siftUrl)) return url;
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      body,
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    remember(response);
    body = undefined;
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url).href;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`unexpected issuer page (${response.status}): ${page.slice(0, 300)}`);
    url = new URL(action, url).href;
    body = page.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the issuer never redirected back to Sift');
}
