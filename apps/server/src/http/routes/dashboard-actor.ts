import type { FastifyInstance } from 'fastify';
import { createBillingProvider } from '../../billing/providers.ts';
import type { DashboardActor } from '../../domain/dashboard-actor.ts';
import { type AppContext, dashboardUrl } from '../context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard services' actor for this request (set after the session is checked). */
    dashboardActor: DashboardActor;
  }
}

/** Builds every dashboard request's actor in one place (one billing provider per server). */
export function provideDashboardActor(app: FastifyInstance, context: AppContext): void {
  const billing = createBillingProvider(context.config);
  app.decorateRequest('dashboardActor', null as unknown as DashboardActor);
  app.addHook('preHandler', async (request) => {
    request.dashboardActor = {
      userId: request.userId,
      keyring: context.keyring,
      billing,
      dashboardUrl: dashboardUrl(context.config, request),
      files: context.files,
      verifiedApiKeys: context.verifiedApiKeys,
      foundCollections: context.foundCollections,
    };
  });
}
