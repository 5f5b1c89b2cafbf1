import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkoutUnavailablePage, localCheckoutPage } from '../../billing/checkout-page.ts';
import { createBillingProvider } from '../../billing/providers.ts';
import { confirmLocalCheckout, getLocalCheckout } from '../../domain/billing.ts';
import { receiveBillingWebhook } from '../../domain/billing-events.ts';
import { DomainError } from '../../domain/errors.ts';
import type { AppContext } from '../context.ts';

const CheckoutParams = z.object({ checkoutId: z.string().min(1).max(200) });

/**
 * Billing addresses reached without a session: the local checkout page (its unguessable id is
 * the capability, as a Stripe checkout address is) and the Stripe webhook (its signature is).
 */
export const billingCheckoutRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, database }) => {
  const tags = ['Billing'];
  const provider = createBillingProvider(config);
  await app.register(formbody);
  // The webhook's signature is over the exact bytes Stripe sent.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const unavailable = (error: unknown) => {
    if (error instanceof DomainError && error.status < 500) return { status: error.status, page: checkoutUnavailablePage(error.detail) };
    throw error;
  };

  app.get('/billing/checkout/:checkoutId', { schema: { tags, params: CheckoutParams, hide: true } }, async (request, reply) => {
    try {
      const checkout = await getLocalCheckout(database, request.params.checkoutId);
      return reply.type('text/html').header('cache-control', 'no-store').send(localCheckoutPage(request.params.checkoutId, checkout));
    } catch (error) {
      const { status, page } = unavailable(error);
      return reply.status(status).type('text/html').send(page);
    }
  });

  app.post('/billing/checkout/:checkoutId/confirm', { schema: { tags, params: CheckoutParams, hide: true } }, async (request, reply) => {
    try {
      const plan = await confirmLocalCheckout(database, request.params.checkoutId);
      return reply.redirect(`/billing?recent_subscription_type=${plan}`, 303);
    } catch (error) {
      const { status, page } = unavailable(error);
      return reply.status(status).type('text/html').send(page);
    }
  });

  app.post(
    '/billing/webhook',
    { schema: { tags, description: 'Stripe webhook: checkout, subscription and invoice events, signature-checked.' } },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from(JSON.stringify(request.body ?? {}));
      return receiveBillingWebhook(database, provider, body, Array.isArray(signature) ? signature[0] : signature);
    },
  );
};
