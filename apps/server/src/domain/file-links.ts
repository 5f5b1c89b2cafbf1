import { jwtVerify, SignJWT } from 'jose';
import { hs256Key, type Keyring } from '../auth/keyring.ts';
import { NotFound } from './errors.ts';

/**
 * `file_url`: `/v1/documents/get-document?token=<JWT>`, and `image_url`:
 * `/v1/documents/get-page-image?token=<JWT>`, tokens signed with the file-url key naming one
 * document id (and, for an image, one page). Tokens live one to two hours: they are minted per
 * document and hour so a listing of 1024 documents does not sign 1024 fresh tokens on every call.
 * A document overwritten keeps its id: its URLs serve the new file (and its new page images).
 */
const HOUR_SECONDS = 3600;
type Audience = 'file' | 'page-image';
/**
 * Per keyring (one per server secret), the hour the cached tokens were minted in and the tokens
 * by audience, then subject (a map per audience: a key made of both cost a new string a lookup).
 */
const caches = new WeakMap<Keyring, { hour: number; tokens: Record<Audience, Map<string, string>> }>();

/** This hour's tokens of a keyring for one audience: a new hour starts empty caches. */
function hourlyCache(keyring: Keyring, audience: Audience): { hour: number; tokens: Map<string, string> } {
  const hour = Math.floor(Date.now() / 1000 / HOUR_SECONDS);
  let cached = caches.get(keyring);
  if (!cached || cached.hour !== hour) {
    cached = { hour, tokens: { file: new Map(), 'page-image': new Map() } };
    caches.set(keyring, cached);
  }
  return { hour, tokens: cached.tokens[audience] };
}

/**
 * A token per subject, in order. Those minted this hour are read from the cache without a
 * promise each: a search answers with ten file URLs, and awaiting a promise for each adds up on
 * the HTTP thread.
 */
async function signedTokens(keyring: Keyring, audience: Audience, subjects: readonly string[]): Promise<string[]> {
  const { hour, tokens: cache } = hourlyCache(keyring, audience);
  const tokens = subjects.map((subject) => cache.get(subject));
  for (let i = 0; i < subjects.length; i++) {
    if (tokens[i] !== undefined) continue;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(subjects[i]!)
      .setAudience(audience)
      .setExpirationTime((hour + 2) * HOUR_SECONDS)
      .sign(await hs256Key(keyring.fileUrl));
    if (cache.size > 100_000) cache.clear();
    cache.set(subjects[i]!, token);
    tokens[i] = token;
  }
  return tokens as string[];
}

const signedToken = async (keyring: Keyring, audience: Audience, subject: string): Promise<string> => (await signedTokens(keyring, audience, [subject]))[0]!;

async function verifiedSubject(keyring: Keyring, audience: Audience, token: string, refusal: string): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, await hs256Key(keyring.fileUrl), { algorithms: ['HS256'], audience });
    if (!payload.sub) throw new Error('no subject');
    return payload.sub;
  } catch {
    throw new NotFound(refusal);
  }
}

export const fileToken = (keyring: Keyring, documentId: string): Promise<string> => signedToken(keyring, 'file', documentId);

/** Builds the file URLs of documents, in order, for one response (the base URL comes from the request). */
export type FileLinks = (documentIds: readonly string[]) => Promise<string[]>;
export const fileLinks =
  (keyring: Keyring, baseUrl: string): FileLinks =>
  async (documentIds) =>
    (await signedTokens(keyring, 'file', documentIds)).map((token) => `${baseUrl}/v1/documents/get-document?token=${token}`);

/** The document id a token names, or 404 when it is forged, altered or expired. */
export const verifyFileToken = (keyring: Keyring, token: string): Promise<string> =>
  verifiedSubject(keyring, 'file', token, 'This file link is invalid or has expired.');

/**
 * Builds the image URL of a document's page, for one response. The URL names the file's content
 * hash too: an image is cached forever, so an overwritten document's pages get new URLs.
 */
export type PageImageLinks = (documentId: string, pageIndex: number, fileHash: string) => Promise<string>;
export const pageImageLinks =
  (keyring: Keyring, baseUrl: string): PageImageLinks =>
  async (documentId, pageIndex, fileHash) =>
    `${baseUrl}/v1/documents/get-page-image?token=${await signedToken(keyring, 'page-image', `${documentId}/${pageIndex}/${fileHash.slice(0, 16)}`)}`;

/** The document, page and file version an image token names, or 404 when it is forged, altered or expired. */
export async function verifyPageImageToken(keyring: Keyring, token: string): Promise<{ documentId: string; pageIndex: number; fileVersion: string }> {
  const subject = await verifiedSubject(keyring, 'page-image', token, 'This page image link is invalid or has expired.');
  const [documentId, page, fileVersion] = subject.split('/');
  return { documentId: documentId!, pageIndex: Number(page), fileVersion: fileVersion ?? '' };
}
