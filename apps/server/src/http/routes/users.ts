import { EndAllSessionsResponse, GetUserResponse, LogoutResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endAllSessions, endSession } from '../../auth/session.ts';
import { getUserWithOrganizations } from '../../domain/accounts.ts';
import type { AppContext } from '../context.ts';

export const userRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  const tags = ['Session'];
  app.post(
    '/api/users/get-user',
    { schema: { tags, summary: 'The signed-in user and their organizations', response: { 200: GetUserResponse } } },
    async (request) => getUserWithOrganizations(database, request.dashboardActor),
  );

  app.post(
    '/api/users/logout',
    { schema: { tags, summary: 'Ends this session: its token is refused from now on', response: { 200: LogoutResponse } } },
    async (request) => {
      await endSession(database, request.sessionId);
      return { message: 'Signed out.' };
    },
  );

  app.post(
    '/api/users/end-all-sessions',
    { schema: { tags, summary: "Ends every one of the user's sessions, this one included", response: { 200: EndAllSessionsResponse } } },
    async (request) => {
      const ended = await endAllSessions(database, request.userId);
      return { message: `Ended ${ended} session(s).`, sessions_ended: ended };
    },
  );
};
