import {
  DocumentUsageHistoryResponse,
  EmbedUsageHistoryResponse,
  ModelsUsageCountersResponse,
  QueryUsageHistoryResponse,
  RerankUsageHistoryResponse,
  UsageCountersResponse,
  UsageRequest,
} from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  getDocumentUsageHistory,
  getEmbedUsageHistory,
  getModelsUsageCounters,
  getQueryUsageHistory,
  getRerankUsageHistory,
  getUsageCounters,
} from '../../../domain/usage.ts';
import type { AppContext } from '../../context.ts';

/** /v1/usage: counters and histories of the API key's organization (read_only keys may read them). */
export const usageRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  const tags = ['Usage'];
  app.post('/usage/counters', { schema: { tags, response: { 200: UsageCountersResponse } } }, async (request) =>
    getUsageCounters(database, request.actor),
  );
  app.post('/usage/models/counters', { schema: { tags, response: { 200: ModelsUsageCountersResponse } } }, async (request) =>
    getModelsUsageCounters(database, request.actor),
  );
  app.post('/usage/documents', { schema: { tags, body: UsageRequest, response: { 200: DocumentUsageHistoryResponse } } }, async (request) =>
    getDocumentUsageHistory(database, request.actor, request.body),
  );
  app.post('/usage/queries', { schema: { tags, body: UsageRequest, response: { 200: QueryUsageHistoryResponse } } }, async (request) =>
    getQueryUsageHistory(database, request.actor, request.body),
  );
  app.post('/usage/models/reranker', { schema: { tags, body: UsageRequest, response: { 200: RerankUsageHistoryResponse } } }, async (request) =>
    getRerankUsageHistory(database, request.actor, request.body),
  );
  app.post('/usage/models/embed', { schema: { tags, body: UsageRequest, response: { 200: EmbedUsageHistoryResponse } } }, async (request) =>
    getEmbedUsageHistory(database, request.actor, request.body),
  );
};
