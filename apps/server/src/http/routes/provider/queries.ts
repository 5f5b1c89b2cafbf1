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
import type { AppContext } from '../../context.ts';
import { providerActor } from './actor.ts';

export const queryRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const { database } = context;
  const tags = ['Queries'];
  app.post(
    '/queries/top-documents',
    { schema: { tags, body: TopDocumentsRequest, response: { 200: TopDocumentsResponse } } },
    async (request) => topDocuments(database, providerActor(request, context), request.body),
  );
  app.post(
    '/queries/top-pages',
    { schema: { tags, body: TopPagesRequest, response: { 200: TopPagesResponse } } },
    async (request) => topPages(database, providerActor(request, context), request.body),
  );
  app.post(
    '/queries/top-snippets',
    { schema: { tags, body: TopSnippetsRequest, response: { 200: TopSnippetsResponse } } },
    async (request) => topSnippets(database, providerActor(request, context), request.body),
  );
};
