import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { addDays, paidPeriodStartsUntil, type Period, subscriptionState } from '../billing/periods.ts';
import { isSelfServe, type PlanType, plans, type SelfServePlanType, type SubscriptionType } from '../billing/plans.ts';
import type { BillingProvider } from '../billing/provider.ts';
import type { Database, DB } from '../db/schema.ts';
import { nowIso } from '../clock.ts';
import { Conflict, Forbidden, Invalid, NotFound } from './errors.ts';
import { requireMember, requireOwner } from './memberships.ts';
import type { DashboardActor } from './dashboard-actor.ts';

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
export type SubscriptionRow = DB['subscriptions'];

export const loadSubscription = (db: Executor, organizationId: string) =>
  db.selectFrom('subscriptions').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();

type SubscriptionFacts = Partial<Omit<SubscriptionRow, 'organization_id'>>;

/**
 * An organization's one subscription row: `facts` replace what it says; `whenNew` fills the
 * columns a row needs only when there was none yet.
 */
export async function writeSubscription(db: Executor, organizationId: string, facts: SubscriptionFacts, whenNew: SubscriptionFacts = {}): Promise<void> {
  await db
    .insertInto('subscriptions')
    .values({ ...whenNew, ...facts, organization_id: organizationId } as Insertable<SubscriptionRow>)
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(facts))
    .execute();
}

/**
 * The organization's current billing cycle (the subscription period now falls in: the trial, else
 * the paid month), or null when it has no plan. Usage counters call this; spec: "billing cycle".
 */
export async function currentBillingPeriod(database: Database, organizationId: string): Promise<Period | null> {
  return subscriptionState(await loadSubscription(database.db, organizationId), new Date()).period;
}

/** spec §7 /billing/status: any member reads the plan, the trial's end and the invoices (newest first). */
export async function getBillingStatus(database: Database, { userId }: Pick<DashboardActor, 'userId'>, input: { organization_id: string }) {
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
  { billing: provider, userId, dashboardUrl }: Pick<DashboardActor, 'billing' | 'userId' | 'dashboardUrl'>,
  input: { organization_id: string; subscription_type: SubscriptionType },
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
export async function cancelPlan(database: Database, { billing: provider, userId }: Pick<DashboardActor, 'billing' | 'userId'>, input: { organization_id: string }) {
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
    await writeSubscription(trx, spent.organization_id, facts);
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

export async function writeInvoice(db: Executor, organizationId: string, type: PlanType, amount: number, date: string, sourceId: string) {
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
 * Stops the payment side of an organization that is being deleted: a Stripe subscription would
 * otherwise go on charging for an organization that no longer exists.
 */
export async function stopBillingOfDeletedOrganization(database: Database, provider: BillingProvider, organizationId: string): Promise<void> {
  const row = await loadSubscription(database.db, organizationId);
  if (row?.stripe_subscription_id && subscriptionState(row, new Date()).period) await provider.cancelSuperseded(row.stripe_subscription_id);
}

/**
 * The admin API sets an organization's plan directly (a platform bills its own customers): no
 * checkout, no trial, no invoice. `none` ends the current plan now.
 */
export async function setPlanByAdmin(db: Executor, organizationId: string, plan: PlanType | 'none'): Promise<void> {
  const now = nowIso();
  if (plan === 'none') {
    await db.updateTable('subscriptions').set({ ended_at: now, cancel_at: null, updated_at: now }).where('organization_id', '=', organizationId).execute();
    return;
  }
  const row = {
    subscription_type: plan,
    provider: 'local' as const,
    started_at: now,
    trial_end: null,
    billing_anchor: now,
    cancel_at: null,
    ended_at: null,
    updated_at: now,
  };
  await writeSubscription(db, organizationId, row, { trial_used: 0, stripe_customer_id: null, stripe_subscription_id: null });
}
