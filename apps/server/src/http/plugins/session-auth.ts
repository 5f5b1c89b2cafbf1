import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Keyring } from '../../auth/keyring.ts';
import { verifySessionToken } from '../../auth/session.ts';
import type { Database } from '../../db/schema.ts';
import { Unauthorized } from '../../domain/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the session guard on dashboard routes. */
    userId: string;
    /** The session the request came with (what logout ends). */
    sessionId: string;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : null;
}

/** Guards every route registered in this scope: a valid session JWT whose session was not ended, or 401. */
export function requireSession(app: FastifyInstance, keyring: Keyring, database: Database): void {
  app.decorateRequest('userId', '');
  app.decorateRequest('sessionId', '');
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new Unauthorized('Not authenticated');
    const session = await verifySessionToken(database, keyring, token);
    if (!session) throw new Unauthorized('Invalid or expired session');
    request.userId = session.userId;
    request.sessionId = session.sessionId;
  });
}
