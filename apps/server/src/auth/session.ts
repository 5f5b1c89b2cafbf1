import { jwtVerify, SignJWT } from 'jose';
import { hs256Key, type Keyring } from './keyring.ts';

const SESSION_LIFETIME = '30d';

/** The session JWT handed to the dashboard (HS256, subject = user id). */
export async function issueSessionToken(keyring: Keyring, userId: string): Promise<string> {
  return new SignJWT({ typ: 'session' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(SESSION_LIFETIME)
    .sign(await hs256Key(keyring.session));
}

/** The user id of a valid session token, or null for anything else. */
export async function verifySessionToken(keyring: Keyring, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, await hs256Key(keyring.session), { algorithms: ['HS256'] });
    return payload.typ === 'session' && typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
