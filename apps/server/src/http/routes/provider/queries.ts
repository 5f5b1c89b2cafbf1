import {
  TopDocumentsRequest,
  TopDocumentsResponse,
  TopPagesRequest,
  TopPagesResponse,
  TopSnippetsRequest,
  TopSnippetsResponse,
} from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { topDocuments, topPages, topSnippets } from '../../../domain/search.ts';
import { errorResponses } from '../../plugins/errors.ts';
import type { AppContext } from '../../context.ts';

/**
 * Query answers are written with JSON.stringify alone: the handlers' return types are checked
 * against the response schemas when compiling, and parsing 25 results again with zod on every
 * answer cost more than the rest of the route (the schemas still document the responses).
 */
const serializerCompiler = () => (data: unknown) => JSON.stringify(data);

export const queryRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, engine }) => {
  const tags = ['Queries'];
  // 404: unknown collection or reranker; 429: the reranker's byte budget.
  const errors = errorResponses(404, 429);
  app.post(
    '/queries/top-documents',
    { schema: { tags, body: TopDocumentsRequest, response: { 200: TopDocumentsResponse, ...errors } }, serializerCompiler },
    async (request) => topDocuments(database, engine, request.actor, request.body),
  );
  app.post(
    '/queries/top-pages',
    { schema: { tags, body: TopPagesRequest, response: { 200: TopPagesResponse, ...errors } }, serializerCompiler },
    async (request) => topPages(database, engine, request.actor, request.body),
  );
  app.post(
    '/queries/top-snippets',
    { schema: { tags, body: TopSnippetsRequest, response: { 200: TopSnippetsResponse, ...errors } }, serializerCompiler },
    async (request) => topSnippets(database, engine, request.actor, request.body),
  );
};
