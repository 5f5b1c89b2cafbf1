import { StatusRequest, StatusResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getStatus } from '../../../domain/documents.ts';
import { errorResponses } from '../../plugins/errors.ts';
import type { AppContext } from '../../context.ts';

export const statusRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, engine }) => {
  app.post(
    '/status/get-status',
    { schema: { tags: ['Status'], body: StatusRequest.nullish(), response: { 200: StatusResponse, ...errorResponses(404) } } },
    async (request) => getStatus(database, engine, request.actor, request.body ?? {}),
  );
};
