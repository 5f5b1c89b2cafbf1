import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type Stripe from 'stripe';
import { addDays, paidPeriodStartsUntil, type Period, subscriptionState } from '../billing/periods.ts';
import { isSelfServe, type PlanType, plans, type SelfServePlanType, type SubscriptionType } from '../billing/plans.ts';
import type { BillingProvider } from '../billing/provider.ts';
import type { Database, DB } from '../db/schema.ts';
import { nowIso } from './clock.ts';
import { Conflict, Forbidden, Invalid, NotFound } from './errors.ts';
import { requireMember, requireOwner } from './memberships.ts';

/** What billing answers when it refuses (spec §6 leaves who may subscribe open: owners may). */
export const billingMessages = {
  onlyOwnersManageBilling: 'Only organization owners can change or cancel the billing plan.',
  alreadyOnPlan: (plan: string) => `Your organization is already on the ${plan} plan.`,
  enterpriseByCall: 'The Enterprise plan is arranged by booking a call.',
  noneIsCancel: 'To leave your plan, cancel it.',
  noPlanToCancel: 'Your organization has no plan to cancel.',
  checkoutUnavailable: 'This checkout has expired or was already used. Start again from the Billing page.',
} as const;

type Executor = Kysely<DB> | Transaction<DB>;
type SubscriptionRow = DB['subscriptions'];

const loadSubscription = (db: Executor, organizationId: string) =>
  db.selectFrom('subscriptions').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();

/**
 * The organization's current billing cycle (the subscription period now falls in: the trial, else
 * the paid month), or null when it has no plan. Usage counters call this; spec: "billing cycle".
 */
export async function currentBillingPeriod(database: Database, organizationId: string): Promise<Period | null> {
  return subscriptionState(await loadSubscription(database.db, organizationId), new Date()).period;
}

/** spec §7 /billing/status: any member reads the plan, the trial's end and the invoices (newest first). */
export async function getBillingStatus(database: Database, userId: string, input: { organization_id: string }) {
  await requireMember(database, userId, input.organization_id);
  const { db } = database;
  const now = new Date();
  const row = await loadSubscription(db, input.organization_id);
  if (row?.provider === 'local') await writeLocalRenewals(db, row, now);
  const state = subscriptionState(row, now);
  const invoices = await db
    .selectFrom('invoices')
    .select(['date', 'subscription_type', 'amount'])
    .where('organization_id', '=', input.organization_id)
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
  return {
    subscription_type: state.subscriptionType,
    trial_end_date: state.trialEnd?.toISOString() ?? null,
    current_period_end: state.period?.end.toISOString() ?? null,
    cancel_at: state.cancelAt?.toISOString() ?? null,
    invoices: invoices.map((invoice) => ({ ...invoice, amount: Number(invoice.amount) })),
  };
}

/**
 * spec §7 /billing/subscribe: an owner picks Starter or Teams and is sent to pay (`redirect_url`).
 * Picking the plan a cancellation is ending withdraws the cancellation instead.
 */
export async function subscribe(
  database: Database,
  provider: BillingProvider,
  userId: string,
  input: { organization_id: string; subscription_type: SubscriptionType },
  dashboardUrl: string,
) {
  await requireOwner(database, userId, input.organization_id, billingMessages.onlyOwnersManageBilling);
  const target = input.subscription_type;
  if (target === 'enterprise') throw new Invalid(billingMessages.enterpriseByCall);
  if (!isSelfServe(target)) throw new Invalid(billingMessages.noneIsCancel);
  const row = await loadSubscription(database.db, input.organization_id);
  const state = subscriptionState(row, new Date());
  if (row && state.subscriptionType === target) {
    if (!state.cancelAt) throw new Conflict(billingMessages.alreadyOnPlan(plans[target].name));
    await provider.resume(row.stripe_subscription_id);
    await database.db
      .updateTable('subscriptions')
      .set({ cancel_at: null, updated_at: nowIso() })
      .where('organization_id', '=', input.organization_id)
      .execute();
    return { redirect_url: `${dashboardUrl}/billing?recent_subscription_type=${target}` };
  }
  const plan = plans[target];
  const redirectUrl = await provider.startCheckout(database, {
    organizationId: input.organization_id,
    userId,
    plan: { ...plan, type: target, monthlyPriceCents: plan.monthlyPriceCents! },
    withTrial: plan.trialDays > 0 && state.subscriptionType === 'none' && !row?.trial_used,
    dashboardUrl,
    stripeCustomerId: row?.stripe_customer_id ?? null,
  });
  return { redirect_url: redirectUrl };
}

/** spec §7 /billing/pause: an owner cancels; the plan returns to none at the end of the period. */
export async function cancelPlan(database: Database, provider: BillingProvider, userId: string, input: { organization_id: string }) {
  await requireOwner(database, userId, input.organization_id, billingMessages.onlyOwnersManageBilling);
  const row = await loadSubscription(database.db, input.organization_id);
  const state = subscriptionState(row, new Date());
  if (!row || !state.period) throw new Conflict(billingMessages.noPlanToCancel);
  if (!state.cancelAt) {
    await provider.cancelAtPeriodEnd(row.stripe_subscription_id);
    await database.db
      .updateTable('subscriptions')
      .set({ cancel_at: state.period.end.toISOString(), updated_at: nowIso() })
      .where('organization_id', '=', input.organization_id)
      .execute();
  }
  return { message: `Your plan ends on ${(state.cancelAt ?? state.period.end).toISOString()}.` };
}

/** A local checkout page's facts, for the page itself (the id is the capability). */
export async function getLocalCheckout({ db }: Database, checkoutId: string) {
  const checkout = await db
    .selectFrom('checkout_sessions')
    .innerJoin('organizations', 'organizations.id', 'checkout_sessions.organization_id')
    .select([
      'checkout_sessions.subscription_type',
      'checkout_sessions.with_trial',
      'checkout_sessions.expires_at',
      'checkout_sessions.completed_at',
      'organizations.name as organization_name',
    ])
    .where('checkout_sessions.id', '=', checkoutId)
    .executeTakeFirst();
  if (!checkout || checkout.completed_at || new Date(checkout.expires_at) <= new Date()) {
    throw new NotFound(billingMessages.checkoutUnavailable);
  }
  const plan = plans[checkout.subscription_type];
  const today = new Date();
  return {
    plan,
    organizationName: checkout.organization_name,
    trialEnd: checkout.with_trial ? addDays(today, plan.trialDays) : null,
  };
}

/**
 * Confirming a local checkout: spends it once, activates the plan (a plan change starts a new
 * period), writes the invoice, and answers the plan for the return address.
 */
export async function confirmLocalCheckout(database: Database, checkoutId: string): Promise<SelfServePlanType> {
  return database.db.transaction().execute(async (trx) => {
    const now = new Date();
    const spent = await trx
      .updateTable('checkout_sessions')
      .set({ completed_at: now.toISOString() })
      .where('id', '=', checkoutId)
      .where('completed_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .returning(['organization_id', 'subscription_type', 'user_id', 'with_trial'])
      .executeTakeFirst();
    if (!spent) throw new NotFound(billingMessages.checkoutUnavailable);
    const membership = await trx
      .selectFrom('memberships')
      .select('permission')
      .where('organization_id', '=', spent.organization_id)
      .where('user_id', '=', spent.user_id)
      .executeTakeFirst();
    if (membership?.permission !== 'OWNER') throw new Forbidden(billingMessages.onlyOwnersManageBilling);
    const plan = plans[spent.subscription_type];
    const previous = await loadSubscription(trx, spent.organization_id);
    const state = subscriptionState(previous, now);
    // A second checkout for the plan already running (two tabs) charges nothing twice.
    if (state.subscriptionType === plan.type) {
      if (!state.cancelAt) throw new Conflict(billingMessages.alreadyOnPlan(plan.name));
      await trx
        .updateTable('subscriptions')
        .set({ cancel_at: null, updated_at: now.toISOString() })
        .where('organization_id', '=', spent.organization_id)
        .execute();
      return spent.subscription_type;
    }
    const startedAt = now.toISOString();
    const trialEnd = spent.with_trial && !previous?.trial_used ? addDays(now, plan.trialDays).toISOString() : null;
    const facts = {
      subscription_type: plan.type,
      provider: 'local' as const,
      started_at: startedAt,
      trial_end: trialEnd,
      billing_anchor: trialEnd ?? startedAt,
      cancel_at: null,
      ended_at: null,
      trial_used: previous?.trial_used || trialEnd ? 1 : 0,
      stripe_customer_id: null,
      stripe_subscription_id: null,
      updated_at: startedAt,
    };
    await trx
      .insertInto('subscriptions')
      .values({ organization_id: spent.organization_id, ...facts })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet(facts))
      .execute();
    if (trialEnd) {
      await writeInvoice(trx, spent.organization_id, plan.type, 0, startedAt, `local:${spent.organization_id}:${startedAt}:trial`);
    }
    await writeLocalRenewals(trx, { organization_id: spent.organization_id, ...facts }, now);
    return spent.subscription_type;
  });
}

/** The local provider's paid months: one invoice per month begun, written once (source ids are unique). */
async function writeLocalRenewals(db: Executor, row: SubscriptionRow, now: Date) {
  const price = plans[row.subscription_type].monthlyPriceCents;
  if (price === null) return;
  for (const start of paidPeriodStartsUntil(row, now)) {
    const date = start.toISOString();
    await writeInvoice(db, row.organization_id, row.subscription_type, price, date, `local:${row.organization_id}:${row.started_at}:${date}`);
  }
}

async function writeInvoice(db: Executor, organizationId: string, type: PlanType, amount: number, date: string, sourceId: string) {
  await db
    .insertInto('invoices')
    .values({
      id: randomUUID(),
      organization_id: organizationId,
      subscription_type: type,
      amount,
      date,
      source_id: sourceId,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.column('source_id').doNothing())
    .execute();
}

/**
 * POST /billing/webhook: a Stripe delivery, verified against its signature, applied once (its
 * event id is recorded in the same transaction), then a subscription a new checkout replaced is
 * stopped at Stripe.
 */
export async function receiveStripeWebhook(
  database: Database,
  provider: BillingProvider,
  rawBody: Buffer | string,
  signature: string | undefined,
) {
  const event = provider.verifyWebhook(rawBody, signature);
  const outcome = await applyStripeEvent(database, event);
  if (outcome.superseded) await provider.cancelSuperseded(outcome.superseded);
  return { received: true, duplicate: !outcome.applied };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));
const isoFromUnix = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);
const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired', 'unpaid']);

export async function applyStripeEvent(database: Database, event: Stripe.Event): Promise<{ applied: boolean; superseded?: string }> {
  return database.db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto('billing_events')
      .values({ id: event.id, type: event.type, received_at: nowIso() })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0) return { applied: false };
    const at = isoFromUnix(event.created) ?? nowIso();
    switch (event.type) {
      case 'checkout.session.completed':
        return { applied: true, ...(await applyCompletedCheckout(trx, event.data.object, at)) };
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return { applied: true, ...(await applySubscription(trx, event.data.object, event.type, at)) };
      case 'invoice.paid':
      case 'invoice.payment_succeeded':
        await applyPaidInvoice(trx, event.data.object);
        return { applied: true };
      default:
        return { applied: true };
    }
  });
}

/** The organization an event names, when it still exists (events can outlive a deleted organization). */
async function existingOrganization(trx: Transaction<DB>, organizationId: string | undefined): Promise<string | null> {
  if (!organizationId) return null;
  const row = await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst();
  return row?.id ?? null;
}

async function applyCompletedCheckout(trx: Transaction<DB>, session: Stripe.Checkout.Session, at: string) {
  const organizationId = await existingOrganization(trx, session.metadata?.organization_id);
  const type = session.metadata?.subscription_type;
  const subscriptionId = idOf(session.subscription);
  if (!organizationId || !type || !isSelfServe(type) || !subscriptionId) return {};
  const previous = await loadSubscription(trx, organizationId);
  const customer = idOf(session.customer);
  if (previous?.stripe_subscription_id === subscriptionId) {
    // The subscription's own event came first and holds the better facts (trial, anchor).
    await trx
      .updateTable('subscriptions')
      .set({ stripe_customer_id: customer, updated_at: nowIso() })
      .where('organization_id', '=', organizationId)
      .execute();
    return {};
  }
  const facts = {
    subscription_type: type,
    provider: 'stripe' as const,
    started_at: at,
    trial_end: null,
    billing_anchor: at,
    cancel_at: null,
    ended_at: null,
    trial_used: previous?.trial_used ?? 0,
    stripe_customer_id: customer,
    stripe_subscription_id: subscriptionId,
    updated_at: nowIso(),
  };
  await trx
    .insertInto('subscriptions')
    .values({ organization_id: organizationId, ...facts })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(facts))
    .execute();
  return supersededBy(previous, subscriptionId);
}

/** The previous Stripe subscription, when a newer one replaces it while it still runs. */
const supersededBy = (previous: SubscriptionRow | undefined, subscriptionId: string) =>
  previous?.stripe_subscription_id && previous.stripe_subscription_id !== subscriptionId && !previous.ended_at
    ? { superseded: previous.stripe_subscription_id }
    : {};

async function applySubscription(trx: Transaction<DB>, subscription: Stripe.Subscription, type: Stripe.Event['type'], at: string) {
  const byId = await trx.selectFrom('subscriptions').selectAll().where('stripe_subscription_id', '=', subscription.id).executeTakeFirst();
  const organizationId = await existingOrganization(trx, subscription.metadata?.organization_id ?? byId?.organization_id);
  if (!organizationId) return {};
  const current = await loadSubscription(trx, organizationId);
  const isCurrent = current?.stripe_subscription_id === subscription.id;
  if (type === 'customer.subscription.deleted') {
    if (isCurrent) {
      await trx
        .updateTable('subscriptions')
        .set({ ended_at: isoFromUnix(subscription.ended_at) ?? at, updated_at: nowIso() })
        .where('organization_id', '=', organizationId)
        .execute();
    }
    return {};
  }
  // Updates of a subscription that a newer one already replaced change nothing.
  if (!isCurrent && current?.stripe_subscription_id && !current.ended_at && type === 'customer.subscription.updated') return {};
  const planType = subscription.metadata?.subscription_type ?? current?.subscription_type;
  if (!planType || !isSelfServe(planType)) return {};
  const periodEnd = subscription.items?.data?.[0]?.current_period_end;
  const trialEnd = isoFromUnix(subscription.trial_end);
  const facts = {
    subscription_type: planType,
    provider: 'stripe' as const,
    started_at: isoFromUnix(subscription.start_date) ?? at,
    trial_end: trialEnd,
    billing_anchor: isoFromUnix(subscription.billing_cycle_anchor) ?? at,
    cancel_at: isoFromUnix(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? isoFromUnix(periodEnd) : null),
    ended_at: ENDED_STATUSES.has(subscription.status) ? (isoFromUnix(subscription.ended_at) ?? at) : null,
    trial_used: current?.trial_used || trialEnd ? 1 : 0,
    stripe_customer_id: idOf(subscription.customer),
    stripe_subscription_id: subscription.id,
    updated_at: nowIso(),
  };
  await trx
    .insertInto('subscriptions')
    .values({ organization_id: organizationId, ...facts })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(facts))
    .execute();
  return supersededBy(current, subscription.id);
}

async function applyPaidInvoice(trx: Transaction<DB>, invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  const subscriptionId = idOf(details?.subscription);
  const known = subscriptionId
    ? await trx.selectFrom('subscriptions').selectAll().where('stripe_subscription_id', '=', subscriptionId).executeTakeFirst()
    : undefined;
  const organizationId = await existingOrganization(trx, details?.metadata?.organization_id ?? known?.organization_id);
  if (!invoice.id || !organizationId) return;
  const planType = details?.metadata?.subscription_type ?? known?.subscription_type;
  if (!planType || !(planType in plans) || planType === 'none') return;
  const paidAt = isoFromUnix(invoice.status_transitions?.paid_at) ?? isoFromUnix(invoice.created) ?? nowIso();
  await writeInvoice(trx, organizationId, planType as PlanType, invoice.amount_paid, paidAt, `stripe:${invoice.id}`);
}

/**
 * Stops the payment side of an organization that is being deleted: a Stripe subscription would
 * otherwise go on charging for an organization that no longer exists.
 */
export async function stopBillingOfDeletedOrganization(database: Database, provider: BillingProvider, organizationId: string): Promise<void> {
  const row = await loadSubscription(database.db, organizationId);
  if (row?.stripe_subscription_id && subscriptionState(row, new Date()).period) await provider.cancelSuperseded(row.stripe_subscription_id);
}
