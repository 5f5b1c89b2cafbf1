import { EmbedRequest, EmbedResponse, RerankRequest, RerankResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { embed } from '../../../domain/models/embed.ts';
import { rerank, rerankBudget } from '../../../domain/models/rerank.ts';
import { byteBudget } from '../../../limits/byte-budget.ts';
import type { AppContext } from '../../context.ts';

/** /v1/models: the reranker and the embedding model (read_only keys may call both: nothing changes). */
export const modelRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, limits, metrics }) => {
  const tags = ['Models'];
  // One budget per organization, counted where every server of the installation counts it.
  const limiter = byteBudget(limits, rerankBudget);
  app.post(
    '/models/rerank',
    { schema: { tags, body: RerankRequest, response: { 200: RerankResponse } } },
    async (request) => {
      const result = await rerank(database, request.apiKey, request.body, { limiter });
      metrics.rerankerBytes.inc(result.total_bytes);
      return result;
    },
  );
  app.post(
    '/models/embed',
    { schema: { tags, body: EmbedRequest, response: { 200: EmbedResponse } } },
    async (request) => embed(request.body),
  );
};
