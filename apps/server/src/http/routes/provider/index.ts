import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { provideActor } from './actor.ts';
import { collectionRoutes } from './collections.ts';
import { documentRoutes } from './documents.ts';
import { queryRoutes } from './queries.ts';
import { statusRoutes } from './status.ts';
import { modelRoutes } from './models.ts';
import { parserRoutes } from './parsers.ts';
import { usageRoutes } from './usage.ts';

/**
 * The provider API under /v1, wire-compatible with the official `zeroentropy` SDK. Every route
 * here is behind an API key (see plugins/api-key-auth.ts). One file per route group.
 */
export const providerRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  // Every provider service gets its actor from here: `request.actor`.
  provideActor(app, context);
  await app.register(statusRoutes, context);
  await app.register(collectionRoutes, context);
  await app.register(documentRoutes, context);
  await app.register(queryRoutes, context);
  await app.register(modelRoutes, context);
  await app.register(parserRoutes, context);
  await app.register(usageRoutes, context);
};
