import {
  AdminAddApiKeyRequest,
  AdminAddApiKeyResponse,
  AdminCreateOrganizationRequest,
  AdminDeleteApiKeyRequest,
  AdminGetOrganizationRequest,
  AdminGetOrganizationResponse,
  AdminListApiKeysRequest,
  AdminListApiKeysResponse,
  AdminUpdateApiKeyRequest,
  AdminUpdateOrganizationRequest,
  DefaultResponse,
} from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type AdminActor,
  adminAddApiKey,
  adminCreateOrganization,
  adminDeleteApiKey,
  adminGetOrganization,
  adminListApiKeys,
  adminUpdateApiKey,
  adminUpdateOrganization,
} from '../../../domain/admin.ts';
import { requireAdminKey } from '../../plugins/admin-key-auth.ts';
import { errorResponses } from '../../plugins/errors.ts';
import type { AppContext } from '../../context.ts';

/** /v1/admin: provisioning for platforms built on Sift, behind the installation's admin key only. */
export const adminRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, database, keyring, verifiedApiKeys }) => {
  requireAdminKey(app, config.adminKey);
  const actor: AdminActor = { keyring, verifiedApiKeys };
  const tags = ['Admin'];
  const errors = errorResponses(401, 403, 404);
  app.post(
    '/admin/create-organization',
    { schema: { tags, body: AdminCreateOrganizationRequest, response: { 200: DefaultResponse, 201: DefaultResponse, ...errorResponses(401, 403) } } },
    async (request, reply) => {
      const { created } = await adminCreateOrganization(database, actor, request.body);
      return reply.status(created ? 201 : 200).send({ message: 'Success!' });
    },
  );
  app.post(
    '/admin/get-organization',
    { schema: { tags, body: AdminGetOrganizationRequest, response: { 200: AdminGetOrganizationResponse, ...errors } } },
    async (request) => adminGetOrganization(database, actor, request.body),
  );
  app.post(
    '/admin/update-organization',
    { schema: { tags, body: AdminUpdateOrganizationRequest, response: { 200: DefaultResponse, ...errors } } },
    async (request) => adminUpdateOrganization(database, actor, request.body),
  );
  app.post(
    '/admin/add-api-key',
    { schema: { tags, body: AdminAddApiKeyRequest, response: { 201: AdminAddApiKeyResponse, ...errors } } },
    async (request, reply) => reply.status(201).send(await adminAddApiKey(database, actor, request.body)),
  );
  app.post(
    '/admin/list-api-keys',
    { schema: { tags, body: AdminListApiKeysRequest, response: { 200: AdminListApiKeysResponse, ...errors } } },
    async (request) => adminListApiKeys(database, actor, request.body),
  );
  app.post(
    '/admin/update-api-key',
    { schema: { tags, body: AdminUpdateApiKeyRequest, response: { 200: DefaultResponse, ...errors } } },
    async (request) => adminUpdateApiKey(database, actor, request.body),
  );
  app.post(
    '/admin/delete-api-key',
    { schema: { tags, body: AdminDeleteApiKeyRequest, response: { 200: DefaultResponse, ...errors } } },
    async (request) => adminDeleteApiKey(database, actor, request.body),
  );
};
