import { AddApiKeyRequest, ApiKey, DeleteApiKeyRequest, Ok, UpdateApiKeyRequest } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addApiKey, deleteApiKey, updateApiKey } from '../../domain/api-keys.ts';
import type { AppContext } from '../context.ts';

export const apiKeyRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  const tags = ['API keys'];
  app.post(
    '/api/organizations/api-keys/add-api-key',
    { schema: { tags, body: AddApiKeyRequest, response: { 200: ApiKey.omit({ created_by: true }) } } },
    async (request) => addApiKey(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/api-keys/delete-api-key',
    { schema: { tags, body: DeleteApiKeyRequest, response: { 200: Ok } } },
    async (request) => deleteApiKey(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/api-keys/update-api-key',
    { schema: { tags, body: UpdateApiKeyRequest, response: { 200: Ok } } },
    async (request) => updateApiKey(database, request.dashboardActor, request.body),
  );
};
