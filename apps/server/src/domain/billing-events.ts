import type { Transaction } from 'kysely';
import { isSelfServe, type PlanType, plans } from '../billing/plans.ts';
import type { BillingEvent } from '../billing/billing-event.ts';
import type { BillingProvider } from '../billing/provider.ts';
import type { Database, DB } from '../db/schema.ts';
import { loadSubscription, type SubscriptionRow, writeInvoice, writeSubscription } from './billing.ts';
import { nowIso } from '../clock.ts';

/** What applying an event changed: whether it was new, and a subscription a newer one replaced. */
export interface BillingEventOutcome {
  applied: boolean;
  superseded?: string;
}

/**
 * POST /billing/webhook: a delivery checked by the provider and read as a BillingEvent, applied
 * once, then a subscription a new checkout replaced is stopped at the processor.
 */
export async function receiveBillingWebhook(database: Database, provider: BillingProvider, rawBody: Buffer | string, signature: string | undefined) {
  const event = provider.readWebhook(rawBody, signature);
  const outcome = await applyBillingEvent(database, event);
  if (outcome.superseded) await provider.cancelSuperseded(outcome.superseded);
  return { received: true, duplicate: !outcome.applied };
}

/** Applies an event once: its id is recorded in the same transaction as its effect. */
export async function applyBillingEvent(database: Database, event: BillingEvent): Promise<BillingEventOutcome> {
  return database.db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto('billing_events')
      .values({ id: event.id, type: event.type, received_at: nowIso() })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) return { applied: false };
    switch (event.kind) {
      case 'checkout-completed':
        return { applied: true, ...(await applyCompletedCheckout(trx, event)) };
      case 'subscription-changed':
        return { applied: true, ...(await applySubscription(trx, event)) };
      case 'invoice-paid':
        await applyPaidInvoice(trx, event);
        return { applied: true };
      case 'ignored':
        return { applied: true };
    }
  });
}

type EventOf<Kind extends BillingEvent['kind']> = Extract<BillingEvent, { kind: Kind }>;

/** The organization an event names, when it still exists (events can outlive a deleted organization). */
async function existingOrganization(trx: Transaction<DB>, organizationId: string | undefined): Promise<string | null> {
  if (!organizationId) return null;
  const row = await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
  return row?.id ?? null;
}

async function applyCompletedCheckout(trx: Transaction<DB>, event: EventOf<'checkout-completed'>) {
  const organizationId = await existingOrganization(trx, event.organizationId);
  const type = event.planType;
  const subscriptionId = event.subscriptionId;
  if (!organizationId || !type || !isSelfServe(type) || !subscriptionId) return {};
  const previous = await loadSubscription(trx, organizationId);
  if (previous?.stripe_subscription_id === subscriptionId) {
    // The subscription's own event came first and holds the better facts (trial, anchor).
    await trx
      .updateTable('subscriptions')
      .set({ stripe_customer_id: event.customerId, updated_at: nowIso() })
      .where('organization_id', '=', organizationId)
      .execute();
    return {};
  }
  const facts = {
    subscription_type: type,
    provider: 'stripe' as const,
    started_at: event.at,
    trial_end: null,
    billing_anchor: event.at,
    cancel_at: null,
    ended_at: null,
    trial_used: previous?.trial_used ?? 0,
    stripe_customer_id: event.customerId,
    stripe_subscription_id: subscriptionId,
    updated_at: nowIso(),
  };
  await writeSubscription(trx, organizationId, facts);
  return supersededBy(previous, subscriptionId);
}

/** The previous subscription, when a newer one replaces it while it still runs. */
const supersededBy = (previous: SubscriptionRow | undefined, subscriptionId: string) =>
  previous?.stripe_subscription_id && previous.stripe_subscription_id !== subscriptionId && !previous.ended_at
    ? { superseded: previous.stripe_subscription_id }
    : {};

async function applySubscription(trx: Transaction<DB>, event: EventOf<'subscription-changed'>) {
  const byId = await trx.selectFrom('subscriptions').selectAll().where('stripe_subscription_id', '=', event.subscriptionId).executeTakeFirst();
  const organizationId = await existingOrganization(trx, event.organizationId ?? byId?.organization_id);
  if (!organizationId) return {};
  const current = await loadSubscription(trx, organizationId);
  const isCurrent = current?.stripe_subscription_id === event.subscriptionId;
  if (event.change === 'deleted') {
    if (isCurrent) {
      await trx
        .updateTable('subscriptions')
        .set({ ended_at: event.endedAt ?? event.at, updated_at: nowIso() })
        .where('organization_id', '=', organizationId)
        .execute();
    }
    return {};
  }
  // Updates of a subscription that a newer one already replaced change nothing.
  if (!isCurrent && current?.stripe_subscription_id && !current.ended_at && event.change === 'updated') return {};
  const planType = event.planType ?? current?.subscription_type;
  if (!planType || !isSelfServe(planType)) return {};
  const facts = {
    subscription_type: planType,
    provider: 'stripe' as const,
    started_at: event.startedAt ?? event.at,
    trial_end: event.trialEnd,
    billing_anchor: event.billingAnchor ?? event.at,
    cancel_at: event.cancelAt,
    ended_at: event.endedAt,
    trial_used: current?.trial_used || event.trialEnd ? 1 : 0,
    stripe_customer_id: event.customerId,
    stripe_subscription_id: event.subscriptionId,
    updated_at: nowIso(),
  };
  await writeSubscription(trx, organizationId, facts);
  return supersededBy(current, event.subscriptionId);
}

async function applyPaidInvoice(trx: Transaction<DB>, event: EventOf<'invoice-paid'>) {
  const known = event.subscriptionId
    ? await trx.selectFrom('subscriptions').selectAll().where('stripe_subscription_id', '=', event.subscriptionId).executeTakeFirst()
    : undefined;
  const organizationId = await existingOrganization(trx, event.organizationId ?? known?.organization_id);
  if (!event.invoiceId || !organizationId) return;
  const planType = event.planType ?? known?.subscription_type;
  if (!planType || !(planType in plans) || planType === 'none') return;
  await writeInvoice(trx, organizationId, planType as PlanType, event.amount, event.paidAt, `stripe:${event.invoiceId}`);
}
