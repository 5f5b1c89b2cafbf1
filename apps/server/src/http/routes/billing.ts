import { BillingStatusRequest, BillingStatusResponse, PauseRequest, PauseResponse, SubscribeRequest, SubscribeResponse } from '@sift/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cancelPlan, getBillingStatus, subscribe } from '../../domain/billing.ts';
import type { AppContext } from '../context.ts';

/** Dashboard billing calls of spec §7 (session token). */
export const billingRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  const tags = ['Billing'];
  app.post(
    '/billing/status',
    { schema: { tags, body: BillingStatusRequest, response: { 200: BillingStatusResponse } } },
    async (request) => getBillingStatus(database, request.dashboardActor, request.body),
  );
  app.post(
    '/billing/subscribe',
    { schema: { tags, body: SubscribeRequest, response: { 200: SubscribeResponse } } },
    async (request) => subscribe(database, request.dashboardActor, request.body),
  );
  app.post(
    '/billing/pause',
    { schema: { tags, body: PauseRequest, response: { 200: PauseResponse } } },
    async (request) => cancelPlan(database, request.dashboardActor, request.body),
  );
};
