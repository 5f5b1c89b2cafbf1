import {
  AddOrganizationRequest,
  Ok,
  OrganizationDetail,
  OrganizationRef,
  OrganizationSummary,
  UpdateOrganizationRequest,
} from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createOrganization,
  deleteOrganization,
  getOrganizationInfo,
  renameOrganization,
} from '../../domain/organizations.ts';
import type { AppContext } from '../context.ts';

export const organizationRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, engine }) => {
  const tags = ['Organizations'];
  app.post(
    '/api/organizations/get-info',
    { schema: { tags, body: OrganizationRef, response: { 200: OrganizationDetail } } },
    async (request) => getOrganizationInfo(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/add-organization',
    { schema: { tags, body: AddOrganizationRequest, response: { 200: OrganizationSummary } } },
    async (request) => createOrganization(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/update-organization',
    { schema: { tags, body: UpdateOrganizationRequest, response: { 200: Ok } } },
    async (request) => renameOrganization(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/delete-organization',
    { schema: { tags, body: OrganizationRef, response: { 200: Ok } } },
    async (request) => deleteOrganization(database, engine, request.dashboardActor, request.body),
  );
};
