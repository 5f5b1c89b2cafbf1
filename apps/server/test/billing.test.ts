import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createStripeProvider } from '../src/billing/stripe-provider.ts';
import { billingMessages, cancelPlan, currentBillingPeriod, subscribe } from '../src/domain/billing.ts';
import { receiveBillingWebhook } from '../src/domain/billing-events.ts';
import { type Harness, startHarness } from './harness.ts';

const DAY_MS = 86_400_000;

async function ownerWithOrganization(h: Harness, email: string) {
  const owner = await h.signIn(email);
  const organization = await h.call('/api/organizations/add-organization', { name: `Org of ${email}` }, owner.token);
  return { owner, organizationId: organization.body.id as string };
}

/** Subscribes through the local checkout the way a browser does: subscribe, open the page, confirm. */
async function subscribeLocally(h: Harness, token: string, organizationId: string, plan: 'starter' | 'teams') {
  const subscribed = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: plan }, token);
  expect(subscribed.status).toBe(200);
  const path = new URL(subscribed.body.redirect_url).pathname;
  const page = await h.app.inject({ method: 'GET', url: path });
  const confirmed = await h.app.inject({
    method: 'POST',
    url: `${path}/confirm`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  return { path, page, confirmed };
}

describe('local billing', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  test('a new organization has no plan and no invoices', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'new@example.com');
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ subscription_type: 'none', trial_end_date: null, invoices: [] });
    expect(await currentBillingPeriod(h.database, organizationId)).toBeNull();
  });

  test('subscribing to Starter shows a checkout page whose Confirm activates the trial and writes a $0 invoice', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'starter@example.com');
    const { page, confirmed, path } = await subscribeLocally(h, owner.token, organizationId, 'starter');
    expect(path).toMatch(/^\/billing\/checkout\/[\w-]{20,}$/);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Starter');
    expect(page.body).toContain('$50.00 / month');
    expect(page.body).toContain('Free for 2 weeks');
    expect(page.body).toContain('>Confirm<');
    expect(page.body).toContain('>Cancel<');
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe('/billing?recent_subscription_type=starter');

    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body.subscription_type).toBe('starter');
    const trialEnd = Date.parse(status.body.trial_end_date);
    expect(Math.abs(trialEnd - (Date.now() + 14 * DAY_MS))).toBeLessThan(60_000);
    expect(status.body.invoices).toEqual([{ date: expect.any(String), subscription_type: 'starter', amount: 0 }]);
    const period = await currentBillingPeriod(h.database, organizationId);
    expect(period!.end.getTime()).toBe(trialEnd);
  });

  test('a checkout page is spent by its first confirmation', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'twice@example.com');
    const { path } = await subscribeLocally(h, owner.token, organizationId, 'teams');
    const again = await h.app.inject({ method: 'POST', url: `${path}/confirm`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain(billingMessages.checkoutUnavailable);
    const page = await h.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(404);
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body.invoices).toHaveLength(1);
  });

  test('a second checkout for the plan already running charges nothing', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'two-tabs@example.com');
    const first = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'teams' }, owner.token);
    const second = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'teams' }, owner.token);
    const confirm = (url: string) =>
      h.app.inject({ method: 'POST', url: `${new URL(url).pathname}/confirm`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect((await confirm(first.body.redirect_url)).statusCode).toBe(303);
    const again = await confirm(second.body.redirect_url);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Your organization is already on the Teams plan.');
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body.invoices).toHaveLength(1);
  });

  test('an expired checkout, or one whose owner is no longer an owner, activates nothing', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'expired@example.com');
    const expired = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'starter' }, owner.token);
    const demoted = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'teams' }, owner.token);
    await h.database.db
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', new URL(expired.body.redirect_url).pathname.split('/').pop()!)
      .execute();
    const expiredPage = await h.app.inject({ method: 'GET', url: new URL(expired.body.redirect_url).pathname });
    expect(expiredPage.statusCode).toBe(404);
    const expiredConfirm = await h.app.inject({ method: 'POST', url: `${new URL(expired.body.redirect_url).pathname}/confirm`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(expiredConfirm.statusCode).toBe(404);
    await h.database.db.updateTable('memberships').set({ permission: 'MEMBER' }).where('organization_id', '=', organizationId).execute();
    const demotedConfirm = await h.app.inject({ method: 'POST', url: `${new URL(demoted.body.redirect_url).pathname}/confirm`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(demotedConfirm.statusCode).toBe(403);
    expect(demotedConfirm.body).toContain(billingMessages.onlyOwnersManageBilling);
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body).toMatchObject({ subscription_type: 'none', invoices: [] });
  });

  test('an unknown checkout id shows the unavailable page', async () => {
    const page = await h.app.inject({ method: 'GET', url: '/billing/checkout/not-a-real-checkout' });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Checkout unavailable');
  });

  test('upgrading from Starter to Teams charges $500.00 at once, ends the trial and lists invoices newest first', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'upgrade@example.com');
    await subscribeLocally(h, owner.token, organizationId, 'starter');
    const { confirmed } = await subscribeLocally(h, owner.token, organizationId, 'teams');
    expect(confirmed.headers.location).toBe('/billing?recent_subscription_type=teams');
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body).toMatchObject({ subscription_type: 'teams', trial_end_date: null, cancel_at: null });
    expect(status.body.invoices.map((invoice: { subscription_type: string; amount: number }) => [invoice.subscription_type, invoice.amount])).toEqual([
      ['teams', 50000],
      ['starter', 0],
    ]);
    const period = (await currentBillingPeriod(h.database, organizationId))!;
    expect(period.start.getTime()).toBeLessThanOrEqual(Date.now());
    expect(period.end.getTime()).toBeGreaterThan(Date.now() + 27 * DAY_MS);
  });

  test('the free trial is given once: Starter after Teams is charged at once', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'downgrade@example.com');
    await subscribeLocally(h, owner.token, organizationId, 'starter');
    await subscribeLocally(h, owner.token, organizationId, 'teams');
    const { page } = await subscribeLocally(h, owner.token, organizationId, 'starter');
    expect(page.body).toContain('No free trial');
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body.subscription_type).toBe('starter');
    expect(status.body.trial_end_date).toBeNull();
    expect(status.body.invoices[0]).toMatchObject({ subscription_type: 'starter', amount: 5000 });
  });

  test('subscribing to the current plan, to Enterprise or to none is refused', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'refused@example.com');
    await subscribeLocally(h, owner.token, organizationId, 'teams');
    const same = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'teams' }, owner.token);
    expect(same).toMatchObject({ status: 409, body: { detail: 'Your organization is already on the Teams plan.' } });
    const enterprise = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'enterprise' }, owner.token);
    expect(enterprise).toMatchObject({ status: 422, body: { detail: billingMessages.enterpriseByCall } });
    const none = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'none' }, owner.token);
    expect(none.status).toBe(422);
  });

  test('cancelling keeps the plan until the end of the period, then it is none', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'cancel@example.com');
    await subscribeLocally(h, owner.token, organizationId, 'teams');
    const before = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    const cancelled = await h.call('/billing/pause', { organization_id: organizationId }, owner.token);
    expect(cancelled.status).toBe(200);
    const after = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(after.body.subscription_type).toBe('teams');
    expect(after.body.cancel_at).toBe(before.body.current_period_end);
    expect((await h.call('/billing/pause', { organization_id: organizationId }, owner.token)).status).toBe(200);

    // The period ends.
    await h.database.db
      .updateTable('subscriptions')
      .set({ cancel_at: new Date(Date.now() - 1000).toISOString() })
      .where('organization_id', '=', organizationId)
      .execute();
    const ended = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(ended.body).toMatchObject({ subscription_type: 'none', cancel_at: null, current_period_end: null });
    expect(ended.body.invoices).toHaveLength(1);
    expect(await currentBillingPeriod(h.database, organizationId)).toBeNull();
    const again = await h.call('/billing/pause', { organization_id: organizationId }, owner.token);
    expect(again).toMatchObject({ status: 409, body: { detail: billingMessages.noPlanToCancel } });
  });

  test('choosing the plan being cancelled withdraws the cancellation without a new charge', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'resume@example.com');
    await subscribeLocally(h, owner.token, organizationId, 'teams');
    await h.call('/billing/pause', { organization_id: organizationId }, owner.token);
    const resumed = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'teams' }, owner.token);
    expect(resumed.status).toBe(200);
    expect(resumed.body.redirect_url).toMatch(/\/billing\?recent_subscription_type=teams$/);
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body).toMatchObject({ subscription_type: 'teams', cancel_at: null });
    expect(status.body.invoices).toHaveLength(1);
  });

  test('each paid month that has begun has one invoice, however often the status is read', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'renewals@example.com');
    await subscribeLocally(h, owner.token, organizationId, 'teams');
    const started = new Date(Date.now() - 70 * DAY_MS).toISOString();
    await h.database.db
      .updateTable('subscriptions')
      .set({ started_at: started, billing_anchor: started })
      .where('organization_id', '=', organizationId)
      .execute();
    await h.database.db.deleteFrom('invoices').where('organization_id', '=', organizationId).execute();
    await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body.invoices.map((invoice: { amount: number }) => invoice.amount)).toEqual([50000, 50000, 50000]);
    const period = (await currentBillingPeriod(h.database, organizationId))!;
    expect(period.start.getTime()).toBeLessThanOrEqual(Date.now());
    expect(period.end.getTime()).toBeGreaterThan(Date.now());
  });

  test('members read the billing status but may not subscribe or cancel', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'boss@example.com');
    const member = await h.signIn('member@example.com');
    await h.database.db
      .insertInto('memberships')
      .values({ organization_id: organizationId, user_id: member.id, permission: 'MEMBER', created_at: new Date().toISOString() })
      .execute();
    await subscribeLocally(h, owner.token, organizationId, 'starter');
    const status = await h.call('/billing/status', { organization_id: organizationId }, member.token);
    expect(status.body.subscription_type).toBe('starter');
    const subscribed = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'teams' }, member.token);
    expect(subscribed).toMatchObject({ status: 403, body: { detail: billingMessages.onlyOwnersManageBilling } });
    const cancelled = await h.call('/billing/pause', { organization_id: organizationId }, member.token);
    expect(cancelled).toMatchObject({ status: 403, body: { detail: billingMessages.onlyOwnersManageBilling } });
  });

  test('outsiders and unsigned callers learn nothing', async () => {
    const { organizationId } = await ownerWithOrganization(h, 'private@example.com');
    const stranger = await h.signIn('stranger@example.com');
    for (const path of ['/billing/status', '/billing/pause']) {
      expect((await h.call(path, { organization_id: organizationId }, stranger.token)).status).toBe(404);
      expect((await h.call(path, { organization_id: organizationId })).status).toBe(401);
      expect((await h.call(path, { organization_id: organizationId }, 'not-a-token')).status).toBe(401);
    }
    const subscribed = await h.call('/billing/subscribe', { organization_id: organizationId, subscription_type: 'starter' }, stranger.token);
    expect(subscribed.status).toBe(404);
  });

  test('the webhook answers 404 when Stripe is not configured', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/billing/webhook', payload: { id: 'evt_1' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('stripe billing', () => {
  const webhookSecret = 'whsec_test_secret_for_sift';
  const stripe = new Stripe('sk_test_placeholder');
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ STRIPE_SECRET_KEY: 'sk_test_placeholder', STRIPE_WEBHOOK_SECRET: webhookSecret });
  });
  afterAll(() => h.close());

  const deliver = (event: object, secret = webhookSecret) => {
    const payload = JSON.stringify(event);
    return h.app.inject({
      method: 'POST',
      url: '/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) },
      payload,
    });
  };
  const now = Math.floor(Date.now() / 1000);
  const subscriptionEvent = (organizationId: string, id: string, type: string, extra: object = {}) => ({
    id,
    object: 'event',
    type,
    created: now,
    data: {
      object: {
        id: 'sub_123',
        object: 'subscription',
        customer: 'cus_123',
        status: 'active',
        start_date: now,
        billing_cycle_anchor: now,
        trial_end: null,
        cancel_at: null,
        cancel_at_period_end: false,
        ended_at: null,
        metadata: { organization_id: organizationId, subscription_type: 'teams' },
        items: { data: [{ current_period_start: now, current_period_end: now + 30 * 86400 }] },
        ...extra,
      },
    },
  });
  const invoiceEvent = (organizationId: string, id: string) => ({
    id,
    object: 'event',
    type: 'invoice.paid',
    created: now,
    data: {
      object: {
        id: 'in_123',
        object: 'invoice',
        amount_paid: 50000,
        created: now,
        status_transitions: { paid_at: now },
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: 'sub_123', metadata: { organization_id: organizationId, subscription_type: 'teams' } },
        },
      },
    },
  });

  test('a delivery with a bad signature is rejected and changes nothing', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'forged@example.com');
    const forged = await deliver(subscriptionEvent(organizationId, 'evt_forged', 'customer.subscription.created'), 'whsec_wrong');
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ detail: 'Invalid webhook signature.' });
    const unsigned = await h.app.inject({ method: 'POST', url: '/billing/webhook', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(unsigned.statusCode).toBe(400);
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body.subscription_type).toBe('none');
  });

  test('a signed subscription and invoice are applied once even when delivered twice', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'stripe@example.com');
    const created = subscriptionEvent(organizationId, 'evt_sub_created', 'customer.subscription.created');
    const first = await deliver(created);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(created)).json()).toEqual({ received: true, duplicate: true });
    const paid = invoiceEvent(organizationId, 'evt_invoice_paid');
    await deliver(paid);
    await deliver(paid);
    // The same Stripe invoice under a second event id is still one invoice.
    await deliver({ ...paid, id: 'evt_invoice_payment_succeeded', type: 'invoice.payment_succeeded' });

    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body.subscription_type).toBe('teams');
    expect(status.body.invoices).toEqual([{ date: new Date(now * 1000).toISOString(), subscription_type: 'teams', amount: 50000 }]);
    expect((await currentBillingPeriod(h.database, organizationId))!.start.getTime()).toBe(now * 1000);

    await deliver(subscriptionEvent(organizationId, 'evt_sub_cancelling', 'customer.subscription.updated', { cancel_at_period_end: true }));
    const cancelling = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(cancelling.body.cancel_at).toBe(new Date((now + 30 * 86400) * 1000).toISOString());
    await deliver(subscriptionEvent(organizationId, 'evt_sub_deleted', 'customer.subscription.deleted', { status: 'canceled', ended_at: now }));
    const ended = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(ended.body.subscription_type).toBe('none');
    expect(ended.body.invoices).toHaveLength(1);
  });

  test('a new subscription replacing a running one stops the old one at Stripe, and late updates of the old one change nothing', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'replace@example.com');
    const client = new Stripe('sk_test_placeholder');
    const cancelled: unknown[] = [];
    client.subscriptions.cancel = (async (...args: unknown[]) => {
      cancelled.push(args);
      return {};
    }) as typeof client.subscriptions.cancel;
    const provider = createStripeProvider({ secretKey: 'sk_test_placeholder', webhookSecret }, client);
    const signed = (event: object) => {
      const payload = JSON.stringify(event);
      return [payload, stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret })] as const;
    };
    await receiveBillingWebhook(h.database, provider, ...signed(subscriptionEvent(organizationId, 'evt_old', 'customer.subscription.created', { id: 'sub_old', metadata: { organization_id: organizationId, subscription_type: 'starter' } })));
    expect(cancelled).toEqual([]);
    await receiveBillingWebhook(h.database, provider, ...signed(subscriptionEvent(organizationId, 'evt_new', 'customer.subscription.created', { id: 'sub_new' })));
    expect(cancelled).toEqual([['sub_old', { prorate: true }]]);
    // Stripe then reports the old one cancelled: the organization stays on the new plan.
    await receiveBillingWebhook(h.database, provider, ...signed(subscriptionEvent(organizationId, 'evt_old_upd', 'customer.subscription.updated', { id: 'sub_old', status: 'canceled', metadata: { organization_id: organizationId, subscription_type: 'starter' } })));
    await receiveBillingWebhook(h.database, provider, ...signed(subscriptionEvent(organizationId, 'evt_old_del', 'customer.subscription.deleted', { id: 'sub_old', status: 'canceled', ended_at: now })));
    const status = await h.call('/billing/status', { organization_id: organizationId }, owner.token);
    expect(status.body).toMatchObject({ subscription_type: 'teams', cancel_at: null });
  });

  test('subscribing creates a Checkout Session with the price, the trial and the return address', async () => {
    const { owner, organizationId } = await ownerWithOrganization(h, 'checkout@example.com');
    const calls: { sessions: unknown[]; updates: unknown[] } = { sessions: [], updates: [] };
    const client = {
      checkout: {
        sessions: {
          create: async (params: unknown) => {
            calls.sessions.push(params);
            return { url: 'https://checkout.stripe.test/c/pay/cs_test_1' };
          },
        },
      },
      subscriptions: {
        update: async (...args: unknown[]) => {
          calls.updates.push(args);
          return {};
        },
      },
    } as unknown as Stripe;
    const provider = createStripeProvider({ secretKey: 'sk_test_placeholder', webhookSecret }, client);
    const answer = await subscribe(h.database, { billing: provider, userId: owner.id, dashboardUrl: 'https://sift.test' }, { organization_id: organizationId, subscription_type: 'starter' });
    expect(answer).toEqual({ redirect_url: 'https://checkout.stripe.test/c/pay/cs_test_1' });
    expect(calls.sessions[0]).toMatchObject({
      mode: 'subscription',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 5000, recurring: { interval: 'month' } } }],
      subscription_data: { trial_period_days: 14, metadata: { organization_id: organizationId, subscription_type: 'starter' } },
      success_url: 'https://sift.test/billing?recent_subscription_type=starter',
      cancel_url: 'https://sift.test/billing',
    });

    // Stripe's refusals come back as 502 with Stripe's words.
    client.checkout.sessions.create = async () => {
      throw new Stripe.errors.StripeInvalidRequestError({ message: 'No such customer: cus_gone', type: 'invalid_request_error' });
    };
    await expect(
      subscribe(h.database, { billing: provider, userId: owner.id, dashboardUrl: 'https://sift.test' }, { organization_id: organizationId, subscription_type: 'teams' }),
    ).rejects.toMatchObject({ status: 502, detail: 'Stripe refused the request: No such customer: cus_gone' });

    // The webhook brings the subscription; cancelling asks Stripe to end it at the period's end.
    await deliver(subscriptionEvent(organizationId, 'evt_checkout_sub', 'customer.subscription.created', { id: 'sub_999' }));
    await cancelPlan(h.database, { billing: provider, userId: owner.id }, { organization_id: organizationId });
    expect(calls.updates).toEqual([['sub_999', { cancel_at_period_end: true }]]);
  });
});
