import { EmbedRequest, EmbedResponse, RerankRequest, RerankResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { embed } from '../../../domain/models/embed.ts';
import { rerank } from '../../../domain/models/rerank.ts';
import { errorResponses } from '../../plugins/errors.ts';
import type { AppContext } from '../../context.ts';

/** /v1/models: the reranker and the embedding model (read_only keys may call both: nothing changes). */
export const modelRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, metrics }) => {
  const tags = ['Models'];
  app.post(
    '/models/rerank',
    { schema: { tags, body: RerankRequest, response: { 200: RerankResponse, ...errorResponses(404, 429) } } },
    async (request) => {
      const result = await rerank(database, request.actor, request.body);
      metrics.rerankerBytes.inc(result.total_bytes);
      return result;
    },
  );
  app.post(
    '/models/embed',
    { schema: { tags, body: EmbedRequest, response: { 200: EmbedResponse, ...errorResponses(404) } } },
    async (request) => embed(database, request.actor, request.body),
  );
};
