import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Forbidden, Unauthorized } from '../../domain/errors.ts';
import { bearerToken } from './session-auth.ts';

export const adminAuthMessages = {
  disabled: 'The admin API is disabled: this installation has no SIFT_ADMIN_KEY.',
  notAdmin: "Only the installation's admin key may call the admin API.",
} as const;

// Digests of equal length, so the comparison takes the same time whatever the token is.
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Guards the admin API: the bearer must be the installation's admin key (SIFT_ADMIN_KEY),
 * compared in constant time. No token, or any other token (an organization's API key included,
 * a credential the admin API does not know): 401. An installation without an admin key: 403
 * for everyone. The key itself is never logged (the request log keeps no headers).
 */
export function requireAdminKey(app: FastifyInstance, adminKey: string | undefined): void {
  const expected = adminKey ? digest(adminKey) : null;
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new Unauthorized('Not authenticated');
    if (!expected) throw new Forbidden(adminAuthMessages.disabled);
    if (!timingSafeEqual(digest(token), expected)) throw new Unauthorized(adminAuthMessages.notAdmin);
  });
}
