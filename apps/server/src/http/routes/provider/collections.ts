import { AddCollectionRequest, DefaultResponse, DeleteCollectionRequest, GetCollectionListRequest, GetCollectionListResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addCollection, deleteCollection, listCollections } from '../../../domain/collections.ts';
import { requireWriteAccess } from '../../plugins/api-key-auth.ts';
import { errorResponses } from '../../plugins/errors.ts';
import type { AppContext } from '../../context.ts';

export const collectionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, engine }) => {
  const tags = ['Collections'];
  app.post(
    '/collections/add-collection',
    { schema: { tags, body: AddCollectionRequest, response: { 201: DefaultResponse, ...errorResponses(403, 409) } } },
    async (request, reply) => {
      requireWriteAccess(request);
      return reply.status(201).send(await addCollection(database, engine, request.actor, request.body));
    },
  );
  app.post(
    '/collections/get-collection-list',
    { schema: { tags, body: GetCollectionListRequest, response: { 200: GetCollectionListResponse } } },
    async (request) => listCollections(database, request.actor),
  );
  app.post(
    '/collections/delete-collection',
    { schema: { tags, body: DeleteCollectionRequest, response: { 200: DefaultResponse, ...errorResponses(403, 404) } } },
    async (request) => {
      requireWriteAccess(request);
      return deleteCollection(database, engine, request.actor, request.body);
    },
  );
};
