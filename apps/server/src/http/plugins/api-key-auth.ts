import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateApiKey } from '../../domain/api-keys.ts';
import type { Lookups } from '../../domain/lookups.ts';
import type { ApiKeyActor } from '../../domain/provider-actor.ts';
import { Forbidden, Unauthorized } from '../../domain/errors.ts';
import type { Database } from '../../db/schema.ts';
import { bearerToken } from './session-auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization and permission of the bearer API key, set on provider routes. */
    apiKey: ApiKeyActor;
  }
}

/** Guards every route of this scope (the provider API): a valid API key or 401. */
export function requireApiKey(app: FastifyInstance, database: Database, verified: Lookups<ApiKeyActor>): void {
  app.decorateRequest('apiKey', null as unknown as ApiKeyActor);
  app.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new Unauthorized('Not authenticated');
    request.apiKey = await authenticateApiKey(database, verified, token);
  });
}

export const READ_ONLY_REFUSAL = 'This API key is read-only: it cannot make changes.';

/** Writes need a key with every permission; read_only keys get 403. */
export function requireWriteAccess(request: FastifyRequest): void {
  if (request.apiKey.permission !== 'all') throw new Forbidden(READ_ONLY_REFUSAL);
}
