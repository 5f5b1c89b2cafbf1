import formbody from '@fastify/formbody';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Email, NonBlank, TOKEN_MAX_CHARS } from '@sift/contracts';
import { z } from 'zod';
import { localSignInPage } from '../../auth/local-sign-in-page.ts';
import { createOidcSignIn } from '../../auth/oidc.ts';
import { issueSessionToken } from '../../auth/session.ts';
import { upsertUserByEmail } from '../../domain/accounts.ts';
import { type AppContext, dashboardUrl } from '../context.ts';

const STATE_COOKIE = 'sift_oidc';
/** The invite a user arrives with (a signed JWT), carried through sign-in. */
const Invite = z.string().max(TOKEN_MAX_CHARS);
const InviteQuery = z.object({ invite: Invite.optional() });

/**
 * GET /auth/google/login starts sign-in: the configured OpenID issuer (Google by default), or the
 * local sign-in page when none is configured. Both end on the dashboard with the session JWT in
 * the fragment, and with the invite parameter the user arrived with.
 */
export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, database, keyring }) => {
  await app.register(formbody);
  const tags = ['Sign-in'];

  const finishSignIn = async (reply: FastifyReply, userId: string, invite?: string) => {
    const query = invite ? `?invite=${encodeURIComponent(invite)}` : '';
    return reply.redirect(`/api-keys${query}#session=${await issueSessionToken(database, keyring, userId)}`);
  };

  if (config.oidc) {
    const oidc = createOidcSignIn(config.oidc, keyring);
    const callbackPath = '/auth/google/callback';

    app.get('/auth/google/login', { schema: { tags, querystring: InviteQuery } }, async (request, reply) => {
      const { url, sealed } = await oidc.start(dashboardUrl(config, request) + callbackPath, request.query.invite);
      reply.header('set-cookie', `${STATE_COOKIE}=${sealed}; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=600`);
      return reply.redirect(url);
    });

    app.get(callbackPath, { schema: { tags } }, async (request, reply) => {
      const sealed = /(?:^|;\s*)sift_oidc=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
      reply.header('set-cookie', `${STATE_COOKIE}=; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=0`);
      try {
        const identity = await oidc.finish(new URL(request.url, dashboardUrl(config, request)), sealed);
        const user = await upsertUserByEmail(database, identity);
        return finishSignIn(reply, user.id, identity.invite);
      } catch (error) {
        request.log.warn({ err: error }, 'OpenID sign-in failed');
        return reply.status(400).type('text/html').send(signInFailedPage(error));
      }
    });
  } else {
    app.get('/auth/google/login', { schema: { tags, querystring: InviteQuery } }, async (request, reply) =>
      reply.type('text/html').send(localSignInPage(request.query.invite)),
    );
    app.post(
      '/auth/local/login',
      { schema: { tags, body: z.object({ name: NonBlank, email: Email, invite: Invite.optional() }) } },
      async (request, reply) => {
        const user = await upsertUserByEmail(database, { ...request.body, issuer: 'local', subject: request.body.email.toLowerCase() });
        return finishSignIn(reply, user.id, request.body.invite || undefined);
      },
    );
  }

  app.get('/auth/mode', { schema: { tags, response: { 200: z.object({ mode: z.enum(['oidc', 'local']), docs_url: z.string() }) } } }, async () => ({
    mode: config.oidc ? ('oidc' as const) : ('local' as const),
    docs_url: config.docsUrl,
  }));
};

function signInFailedPage(error: unknown): string {
  const reason = error instanceof Error ? error.message : 'Unknown error';
  return `<!doctype html><meta charset="utf-8"><title>Sign-in failed</title><body style="font-family:system-ui;padding:40px"><h1>Sign-in failed</h1><p>${reason.replace(/</g, '&lt;')}</p><p><a href="/login">Back to sign-in</a></p></body>`;
}
