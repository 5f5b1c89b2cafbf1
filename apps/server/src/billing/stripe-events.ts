import type Stripe from 'stripe';
import type { BillingEvent } from './billing-event.ts';

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));
const isoFromUnix = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);
/** Stripe statuses after which a subscription no longer runs. */
const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired', 'unpaid']);

/**
 * A verified Stripe event in Sift's terms: the organization and plan travel in the metadata that
 * the checkout set (stripe-provider.ts); ids, dates and amounts are read off Stripe's objects.
 */
export function toBillingEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, type: event.type, at: isoFromUnix(event.created) ?? new Date().toISOString() };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        ...base,
        kind: 'checkout-completed',
        organizationId: session.metadata?.organization_id,
        planType: session.metadata?.subscription_type,
        subscriptionId: idOf(session.subscription),
        customerId: idOf(session.customer),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const periodEnd = subscription.items?.data?.[0]?.current_period_end;
      const ended = event.type === 'customer.subscription.deleted' || ENDED_STATUSES.has(subscription.status);
      return {
        ...base,
        kind: 'subscription-changed',
        change: event.type === 'customer.subscription.created' ? 'created' : event.type === 'customer.subscription.updated' ? 'updated' : 'deleted',
        subscriptionId: subscription.id,
        organizationId: subscription.metadata?.organization_id,
        planType: subscription.metadata?.subscription_type,
        customerId: idOf(subscription.customer),
        startedAt: isoFromUnix(subscription.start_date),
        trialEnd: isoFromUnix(subscription.trial_end),
        billingAnchor: isoFromUnix(subscription.billing_cycle_anchor),
        cancelAt: isoFromUnix(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? isoFromUnix(periodEnd) : null),
        endedAt: ended ? (isoFromUnix(subscription.ended_at) ?? base.at) : null,
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details;
      return {
        ...base,
        kind: 'invoice-paid',
        invoiceId: invoice.id ?? null,
        subscriptionId: idOf(details?.subscription),
        organizationId: details?.metadata?.organization_id,
        planType: details?.metadata?.subscription_type,
        amount: invoice.amount_paid,
        paidAt: isoFromUnix(invoice.status_transitions?.paid_at) ?? isoFromUnix(invoice.created) ?? base.at,
      };
    }
    default:
      return { ...base, kind: 'ignored' };
  }
}
