import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Keys derived from the one server secret, each for one purpose, so that a session token can
 * never be replayed as an invite or a file URL signature.
 */
export interface Keyring {
  session: Uint8Array<ArrayBuffer>;
  invite: Uint8Array<ArrayBuffer>;
  fileUrl: Uint8Array<ArrayBuffer>;
  oidcState: Uint8Array<ArrayBuffer>;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function createKeyring(secret: string): Keyring {
  const derive = (purpose: string) => new Uint8Array(hkdfSync('sha256', secret, 'sift', purpose, 32));
  const encryptionKey = derive('api-key-encryption');
  return {
    session: derive('session'),
    invite: derive('invite'),
    fileUrl: derive('file-url'),
    oidcState: derive('oidc-state'),
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
    },
    decrypt(sealed) {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, iv!);
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
    },
  };
}

/** API keys are looked up by this hash; the key itself is never stored in the clear. */
export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey).digest('hex');

const hs256Keys = new WeakMap<Uint8Array<ArrayBuffer>, Promise<CryptoKey>>();

/**
 * One of the keyring's secrets as jose's HS256 key, imported once: handed the bytes, jose imports
 * them again for every token it signs or verifies, which costs more than the signing itself.
 */
export function hs256Key(secret: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  let key = hs256Keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    hs256Keys.set(secret, key);
  }
  return key;
}
