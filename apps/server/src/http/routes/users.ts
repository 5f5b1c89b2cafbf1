import { GetUserResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getUserWithOrganizations } from '../../domain/accounts.ts';
import type { AppContext } from '../context.ts';

export const userRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  app.post(
    '/api/users/get-user',
    { schema: { tags: ['Session'], summary: 'The signed-in user and their organizations', response: { 200: GetUserResponse } } },
    async (request) => getUserWithOrganizations(database, request.dashboardActor),
  );
};
