import type { FastifyInstance } from 'fastify';
import { attachFileStore } from '../../../domain/collections.ts';
import { fileLinks, pageImageLinks } from '../../../domain/file-links.ts';
import { fileStore } from '../../../domain/file-store.ts';
import { createRerankLimiter } from '../../../domain/models/rerank.ts';
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
 * its files, its file and page-image URLs, and the reranker budget (one per server).
 */
export function provideActor(app: FastifyInstance, context: AppContext): void {
  const files = fileStore(context.config.dataDir);
  attachFileStore(context.database, files);
  const rerankLimiter = createRerankLimiter();
  app.decorateRequest('actor', null as unknown as ProviderActor);
  app.addHook('preHandler', async (request) => {
    const baseUrl = dashboardUrl(context.config, request);
    request.actor = {
      organizationId: request.apiKey.organizationId,
      permission: request.apiKey.permission,
      files,
      fileUrl: fileLinks(context.keyring, baseUrl),
      pageImageUrl: pageImageLinks(context.keyring, baseUrl),
      rerankLimiter,
    };
  });
}
