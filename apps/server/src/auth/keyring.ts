import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Keys derived from the one server secret, each for one purpose, so that a session token can
 * never be replayed as an invite or a file URL signature.
 */
export interface Keyring {
  session: Uint8Array;
  invite: Uint8Array;
  fileUrl: Uint8Array;
  oidcState: Uint8Array;
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
