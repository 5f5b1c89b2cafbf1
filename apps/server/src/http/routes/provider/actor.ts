import type { FastifyInstance } from 'fastify';
import { fileLinks, pageImageLinks } from '../../../domain/file-links.ts';
import { rerankBudget } from '../../../domain/models/rerank.ts';
import { modelRegistry } from '../../../domain/models/registry.ts';
import { byteBudget } from '../../../limits/byte-budget.ts';
import type { ProviderActor } from '../../../domain/provider-actor.ts';
import { type AppContext, dashboardUrl } from '../../context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The provider services' actor for this request (set after the API key is checked). */
    actor: ProviderActor;
  }
}

/**
 * Builds every provider request's actor in one place: the key's organization and permission,
 * its files, its file and page-image URLs, and the reranker budget (the installation's).
 */
export function provideActor(app: FastifyInstance, context: AppContext): void {
  const { files } = context;
  // Counted where every server of the installation counts (limits/limit-store.ts).
  const rerankLimiter = byteBudget(context.limits, rerankBudget);
  const models = modelRegistry(context.config.models);
  app.decorateRequest('actor', null as unknown as ProviderActor);
  app.addHook('preHandler', async (request) => {
    const baseUrl = dashboardUrl(context.config, request);
    request.actor = {
      organizationId: request.apiKey.organizationId,
      permission: request.apiKey.permission,
      files,
      fileUrls: fileLinks(context.keyring, baseUrl),
      pageImageUrl: pageImageLinks(context.keyring, baseUrl),
      rerankLimiter,
      models,
      foundCollections: context.foundCollections,
      queryUsage: context.queryUsage,
    };
  });
}
