import { SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { fileToken, verifyFileToken } from '../domain/file-links.ts';
import { createKeyring, hs256Key } from './keyring.ts';
import { verifySessionSignature } from './session.ts';

/** A file-link token (audience "file") for this document, signed with any key. */
const fileShapedToken = async (key: CryptoKey, documentId: string) =>
  new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(documentId).setAudience('file').setExpirationTime('1h').sign(key);

describe('keys imported once (hs256Key)', () => {
  test('a token verifies only under the secret and purpose it was signed with', async () => {
    const keyring = createKeyring('one server secret, long enough');
    const other = createKeyring('another server secret, as long');
    const session = await new SignJWT({ typ: 'session', sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setExpirationTime('1h')
      .sign(await hs256Key(keyring.session));
    expect(await verifySessionSignature(keyring, session)).toEqual({ userId: 'user-1', sessionId: 'session-1' });
    expect(await verifySessionSignature(other, session)).toBeNull();

    expect(await verifyFileToken(keyring, await fileToken(keyring, 'doc-1'))).toBe('doc-1');
    await expect(verifyFileToken(other, await fileToken(keyring, 'doc-2'))).rejects.toThrow('This file link is invalid or has expired.');
    // The right shape signed with the session's key is not a file link: each purpose has its own key.
    await expect(verifyFileToken(keyring, await fileShapedToken(await hs256Key(keyring.session), 'doc-3'))).rejects.toThrow('This file link is invalid or has expired.');
    expect(await verifyFileToken(keyring, await fileShapedToken(await hs256Key(keyring.fileUrl), 'doc-3'))).toBe('doc-3');
  });

  test('each secret is imported once, its key shared by every later call', async () => {
    const keyring = createKeyring('one server secret, long enough');
    expect(await hs256Key(keyring.session)).toBe(await hs256Key(keyring.session));
    expect(await hs256Key(keyring.session)).not.toBe(await hs256Key(keyring.fileUrl));
  });
});
