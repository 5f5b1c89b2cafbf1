import {
  AcceptInviteRequest,
  AcceptInviteResponse,
  DeleteInviteRequest,
  InviteUserRequest,
  InviteUserResponse,
  Ok,
  RemoveUserRequest,
  UpdateUserRequest,
} from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { acceptInvite, deleteInvite, inviteUser, removeMember, updateMemberPermission } from '../../domain/members.ts';
import type { AppContext } from '../context.ts';

export const memberRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  const tags = ['Members and invites'];
  app.post(
    '/api/organizations/users/invite-user',
    { schema: { tags, body: InviteUserRequest, response: { 200: InviteUserResponse } } },
    async (request) =>
      inviteUser(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/users/update-user',
    { schema: { tags, body: UpdateUserRequest, response: { 200: Ok } } },
    async (request) => updateMemberPermission(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/users/remove-user',
    { schema: { tags, description: 'Removes a member; a user removing themselves leaves.', body: RemoveUserRequest, response: { 200: Ok } } },
    async (request) => removeMember(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/users/delete-invite-user',
    { schema: { tags, body: DeleteInviteRequest, response: { 200: Ok } } },
    async (request) => deleteInvite(database, request.dashboardActor, request.body),
  );
  app.post(
    '/api/organizations/users/accept-invite',
    { schema: { tags, body: AcceptInviteRequest, response: { 200: AcceptInviteResponse } } },
    async (request) => acceptInvite(database, request.dashboardActor, request.body),
  );
};
