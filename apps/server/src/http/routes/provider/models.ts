import { EmbedRequest, EmbedResponse, RerankRequest, RerankResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { embed } from '../../../domain/models/embed.ts';
import { createRerankLimiter, rerank } from '../../../domain/models/rerank.ts';
import type { AppContext } from '../../context.ts';

/** /v1/models: the reranker and the embedding model (read_only keys may call both: nothing changes). */
export const modelRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  const tags = ['Models'];
  // One budget per server, shared by every request of an organization.
  const limiter = createRerankLimiter();
  app.post(
    '/models/rerank',
    { schema: { tags, body: RerankRequest, response: { 200: RerankResponse } } },
    async (request) => rerank(database, request.apiKey, request.body, { limiter }),
  );
  app.post(
    '/models/embed',
    { schema: { tags, body: EmbedRequest, response: { 200: EmbedResponse } } },
    async (request) => embed(request.body),
  );
};
