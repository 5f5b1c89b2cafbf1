import { jwtVerify, SignJWT } from 'jose';
import type { Keyring } from '../auth/keyring.ts';
import { NotFound } from './errors.ts';

/**
 * `file_url`: `/v1/documents/get-document?token=<JWT>`, a token signed with the file-url key
 * naming one document id. Tokens live one to two hours: they are minted per document and hour so
 * a listing of 1024 documents does not sign 1024 fresh tokens on every call. A document
 * overwritten keeps its id: its URLs serve the new file.
 */
const HOUR_SECONDS = 3600;
/** Per keyring (one per server secret), the hour the cached tokens were minted in and the tokens. */
const caches = new WeakMap<Keyring, { hour: number; tokens: Map<string, string> }>();

export async function fileToken(keyring: Keyring, documentId: string): Promise<string> {
  const hour = Math.floor(Date.now() / 1000 / HOUR_SECONDS);
  let cached = caches.get(keyring);
  if (!cached || cached.hour !== hour) {
    cached = { hour, tokens: new Map() };
    caches.set(keyring, cached);
  }
  const cache = cached.tokens;
  const key = documentId;
  let token = cache.get(key);
  if (!token) {
    token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(documentId)
      .setAudience('file')
      .setExpirationTime((hour + 2) * HOUR_SECONDS)
      .sign(keyring.fileUrl);
    if (cache.size > 100_000) cache.clear();
    cache.set(key, token);
  }
  return token;
}

/** Builds the file URL of documents, for one response (the base URL comes from the request). */
export type FileLinks = (documentId: string) => Promise<string>;
export const fileLinks =
  (keyring: Keyring, baseUrl: string): FileLinks =>
  async (documentId) =>
    `${baseUrl}/v1/documents/get-document?token=${await fileToken(keyring, documentId)}`;

/** The document id a token names, or 404 when it is forged, altered or expired. */
export async function verifyFileToken(keyring: Keyring, token: string): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, keyring.fileUrl, { algorithms: ['HS256'], audience: 'file' });
    if (!payload.sub) throw new Error('no subject');
    return payload.sub;
  } catch {
    throw new NotFound('This file link is invalid or has expired.');
  }
}
