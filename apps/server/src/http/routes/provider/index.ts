import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { modelRoutes } from './models.ts';
import { usageRoutes } from './usage.ts';

/**
 * The provider API under /v1, wire-compatible with the official `zeroentropy` SDK. Every route
 * here is behind an API key (see plugins/api-key-auth.ts). One file per route group.
 */
export const providerRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  // route groups register here, e.g. await app.register(collectionRoutes, context);
  await app.register(modelRoutes, context);
  await app.register(usageRoutes, context);
};
