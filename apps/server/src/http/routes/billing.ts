import { BillingStatusRequest, BillingStatusResponse, PauseRequest, PauseResponse, SubscribeRequest, SubscribeResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createBillingProvider } from '../../billing/providers.ts';
import { cancelPlan, getBillingStatus, subscribe } from '../../domain/billing.ts';
import { type AppContext, dashboardUrl } from '../context.ts';

/** Dashboard billing calls of spec §7 (session token). */
export const billingRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, database }) => {
  const tags = ['Billing'];
  const provider = createBillingProvider(config);
  app.post(
    '/billing/status',
    { schema: { tags, body: BillingStatusRequest, response: { 200: BillingStatusResponse } } },
    async (request) => getBillingStatus(database, request.userId, request.body),
  );
  app.post(
    '/billing/subscribe',
    { schema: { tags, body: SubscribeRequest, response: { 200: SubscribeResponse } } },
    async (request) => subscribe(database, provider, request.userId, request.body, dashboardUrl(config, request)),
  );
  app.post(
    '/billing/pause',
    { schema: { tags, body: PauseRequest, response: { 200: PauseResponse } } },
    async (request) => cancelPlan(database, provider, request.userId, request.body),
  );
};
