import { afterAll, beforeAll, expect, test } from 'vitest';
import type { BillingProvider } from '../billing/provider.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { upsertUserByEmail } from './accounts.ts';
import { createOrganization, deleteOrganization } from './organizations.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Records what deleting asks of the payment side. */
function recordingProvider(): BillingProvider & { cancelled: string[] } {
  const cancelled: string[] = [];
  const unused = () => {
    throw new Error('not used here');
  };
  return {
    name: 'stripe',
    cancelled,
    startCheckout: unused,
    cancelAtPeriodEnd: unused,
    resume: unused,
    readWebhook: unused,
    async cancelSuperseded(id) {
      cancelled.push(id);
    },
  };
}

test('deleting an organization with a running Stripe subscription stops it before the data goes', async () => {
  const owner = await upsertUserByEmail(h.database, { email: 'payer@example.com', name: 'Payer' });
  const organization = await createOrganization(h.database, { userId: owner.id }, { name: 'Paying Org' });
  const now = new Date().toISOString();
  await h.database.db
    .insertInto('subscriptions')
    .values({
      organization_id: organization.id,
      subscription_type: 'teams',
      provider: 'stripe',
      started_at: now,
      trial_end: null,
      billing_anchor: now,
      cancel_at: null,
      ended_at: null,
      trial_used: 0,
      stripe_customer_id: 'cus_1',
      stripe_subscription_id: 'sub_1',
      updated_at: now,
    })
    .execute();
  const provider = recordingProvider();
  await deleteOrganization(h.database, h.engine, { userId: owner.id, billing: provider, ...h.context }, { organization_id: organization.id });
  expect(provider.cancelled).toEqual(['sub_1']);
  const left = await h.database.db.selectFrom('subscriptions').selectAll().where('organization_id', '=', organization.id).execute();
  expect(left).toEqual([]);
});

test('deleting an organization without a plan asks nothing of the payment side', async () => {
  const owner = await upsertUserByEmail(h.database, { email: 'free@example.com', name: 'Free' });
  const organization = await createOrganization(h.database, { userId: owner.id }, { name: 'Free Org' });
  const provider = recordingProvider();
  await deleteOrganization(h.database, h.engine, { userId: owner.id, billing: provider, ...h.context }, { organization_id: organization.id });
  expect(provider.cancelled).toEqual([]);
});
