import { randomBytes } from 'node:crypto';
import type { Database } from '../db/schema.ts';
import { NotFound } from '../domain/errors.ts';
import { nowIso } from '../clock.ts';
import type { BillingProvider } from './provider.ts';

/** A checkout page stays valid this long. */
export const CHECKOUT_LIFETIME_MS = 60 * 60 * 1000;

/**
 * Billing without a payment processor (the default): subscribing opens a checkout page served by
 * Sift (`/billing/checkout/<id>`); confirming it activates the plan and writes the invoice.
 */
export function createLocalProvider(): BillingProvider {
  return {
    name: 'local',
    async startCheckout({ db }: Database, request) {
      const id = randomBytes(24).toString('base64url');
      const createdAt = nowIso();
      await db
        .insertInto('checkout_sessions')
        .values({
          id,
          organization_id: request.organizationId,
          subscription_type: request.plan.type,
          user_id: request.userId,
          with_trial: request.withTrial ? 1 : 0,
          created_at: createdAt,
          expires_at: new Date(Date.parse(createdAt) + CHECKOUT_LIFETIME_MS).toISOString(),
          completed_at: null,
        })
        .execute();
      return `${request.dashboardUrl}/billing/checkout/${id}`;
    },
    async cancelAtPeriodEnd() {},
    async resume() {},
    async cancelSuperseded() {},
    readWebhook() {
      throw new NotFound('Stripe billing is not configured on this server.');
    },
  };
}
