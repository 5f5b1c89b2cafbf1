import * as client from 'openid-client';
import { jwtVerify, SignJWT } from 'jose';
import { hs256Key, type Keyring } from './keyring.ts';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  allowInsecure: boolean;
}

/** What must survive the trip to the identity provider, kept in a signed short-lived cookie. */
interface PendingSignIn {
  codeVerifier: string;
  state: string;
  nonce: string;
  invite?: string;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string;
}

/**
 * Sign-in through any OpenID Connect issuer found by discovery (Google by default):
 * authorization code with PKCE, state and nonce.
 */
export function createOidcSignIn(settings: OidcSettings, keyring: Keyring) {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        execute: settings.allowInsecure ? [client.allowInsecureRequests] : [],
      })
      .catch((error) => {
        discovered = undefined; // try discovery again on the next sign-in
        throw error;
      });
    return discovered;
  };

  return {
    /** The provider's authorization URL and the sealed state to keep in a cookie. */
    async start(redirectUri: string, invite?: string) {
      const pending: PendingSignIn = {
        codeVerifier: client.randomPKCECodeVerifier(),
        state: client.randomState(),
        nonce: client.randomNonce(),
        invite,
      };
      const url = client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      const sealed = await new SignJWT({ ...pending }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('10m').sign(await hs256Key(keyring.oidcState));
      return { url: url.href, sealed };
    },

    /** Exchanges the code (checking state, nonce and PKCE) for a verified identity. */
    async finish(callbackUrl: URL, sealed: string | undefined): Promise<VerifiedIdentity & { invite?: string }> {
      if (!sealed) throw new Error('The sign-in took too long or cookies are disabled. Please try again.');
      const { payload } = await jwtVerify(sealed, await hs256Key(keyring.oidcState), { algorithms: ['HS256'] });
      const pending = payload as unknown as PendingSignIn;
      const tokens = await client.authorizationCodeGrant(await configuration(), callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      // Google puts the e-mail in the ID token; other issuers only answer it from userinfo.
      const claims: Record<string, unknown> =
        typeof idToken.email === 'string'
          ? idToken
          : await client.fetchUserInfo(await configuration(), tokens.access_token, idToken.sub);
      if (typeof claims.email !== 'string' || claims.email_verified === false) {
        throw new Error('The identity provider did not vouch for an e-mail address.');
      }
      const name = typeof claims.name === 'string' ? claims.name : claims.email.split('@')[0]!;
      return { issuer: idToken.iss, subject: idToken.sub, email: claims.email, name, invite: pending.invite };
    },
  };
}
