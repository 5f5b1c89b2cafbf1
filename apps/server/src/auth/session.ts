import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { deleteSession, deleteUserSessions, insertSession, sessionIsLive } from '../db/sessions.ts';
import type { Database } from '../db/schema.ts';
import { hs256Key, type Keyring } from './keyring.ts';

const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;

/** A verified session: whose, and which (the id logout ends). */
export interface Session {
  userId: string;
  sessionId: string;
}

/**
 * The session JWT handed to the dashboard (HS256, subject = user id, `sid` = its row in
 * `sessions`): the signature says who, the row says it has not been ended.
 */
export async function issueSessionToken(database: Database, keyring: Keyring, userId: string): Promise<string> {
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
  await insertSession(database, { id: sessionId, userId, expiresAt });
  return new SignJWT({ typ: 'session', sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await hs256Key(keyring.session));
}

/** The user id and session id of a signed session token, or null: the signature alone, no database. */
export async function verifySessionSignature(keyring: Keyring, token: string): Promise<Session | null> {
  try {
    const { payload } = await jwtVerify(token, await hs256Key(keyring.session), { algorithms: ['HS256'] });
    if (payload.typ !== 'session' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return { userId: payload.sub, sessionId: payload.sid };
  } catch {
    return null;
  }
}

/**
 * The session of a valid token whose session has not been ended, or null for anything else.
 * A database that cannot answer rejects (a 503), never counts as "ended".
 */
export async function verifySessionToken(database: Database, keyring: Keyring, token: string): Promise<Session | null> {
  const session = await verifySessionSignature(keyring, token);
  if (!session) return null;
  return (await sessionIsLive(database, session.sessionId, session.userId)) ? session : null;
}

/** Logout: this session's token is refused from now on. */
export async function endSession(database: Database, sessionId: string): Promise<void> {
  await deleteSession(database, sessionId);
}

/** Ends every session of the user (every browser they signed in on); how many there were. */
export function endAllSessions(database: Database, userId: string): Promise<number> {
  return deleteUserSessions(database, userId);
}
