import Stripe from 'stripe';
import { DomainError } from '../domain/errors.ts';
import type { BillingProvider } from './provider.ts';
import { toBillingEvent } from './stripe-events.ts';

export const invalidSignature = 'Invalid webhook signature.';

/** A failed Stripe call answers 502 with Stripe's own words, never a bare 500. */
async function atStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) throw new DomainError(502, `Stripe refused the request: ${error.message}`);
    throw error;
  }
}

/**
 * Billing through Stripe: subscribing creates a Checkout Session (the plan's price inline, the
 * trial when due, the organization and plan in metadata) and the browser pays on Stripe; what
 * happened comes back through the signature-checked webhook (domain/billing.ts applies it).
 */
export function createStripeProvider(options: { secretKey: string; webhookSecret?: string }, client?: Stripe): BillingProvider {
  const stripe = client ?? new Stripe(options.secretKey);
  return {
    name: 'stripe',
    async startCheckout(_database, request) {
      const metadata = { organization_id: request.organizationId, subscription_type: request.plan.type };
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'subscription',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: request.plan.monthlyPriceCents,
              recurring: { interval: 'month' },
              product_data: { name: `Sift ${request.plan.name}` },
            },
          },
        ],
        subscription_data: { metadata, ...(request.withTrial ? { trial_period_days: request.plan.trialDays } : {}) },
        metadata,
        client_reference_id: request.organizationId,
        ...(request.stripeCustomerId ? { customer: request.stripeCustomerId } : {}),
        success_url: `${request.dashboardUrl}/billing?recent_subscription_type=${request.plan.type}`,
        cancel_url: `${request.dashboardUrl}/billing`,
      };
      const session = await atStripe(() => stripe.checkout.sessions.create(params));
      if (!session.url) throw new DomainError(502, 'Stripe did not return a checkout address.');
      return session.url;
    },
    async cancelAtPeriodEnd(subscriptionId) {
      if (subscriptionId) await atStripe(() => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }));
    },
    async resume(subscriptionId) {
      if (subscriptionId) await atStripe(() => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false }));
    },
    async cancelSuperseded(subscriptionId) {
      await atStripe(() => stripe.subscriptions.cancel(subscriptionId, { prorate: true }));
    },
    readWebhook(rawBody, signature) {
      if (!options.webhookSecret) throw new DomainError(503, 'The Stripe webhook secret (STRIPE_WEBHOOK_SECRET) is not configured.');
      if (!signature) throw new DomainError(400, invalidSignature);
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch {
        throw new DomainError(400, invalidSignature);
      }
      return toBillingEvent(event);
    },
  };
}
