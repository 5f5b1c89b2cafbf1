import type { Database } from '../db/schema.ts';
import type { BillingEvent } from './billing-event.ts';
import type { Plan } from './plans.ts';

/** What the billing service asks of whoever takes the payment: Sift itself (local) or Stripe. */
export interface CheckoutRequest {
  organizationId: string;
  userId: string;
  plan: Plan & { type: 'starter' | 'teams'; monthlyPriceCents: number };
  withTrial: boolean;
  /** The dashboard's address, where the browser returns. */
  dashboardUrl: string;
  stripeCustomerId: string | null;
}

export interface BillingProvider {
  readonly name: 'local' | 'stripe';
  /** Prepares the payment and answers where the browser goes to confirm it (`redirect_url`). */
  startCheckout(database: Database, request: CheckoutRequest): Promise<string>;
  /** Tells the payment side that the plan ends at the end of its period. */
  cancelAtPeriodEnd(stripeSubscriptionId: string | null): Promise<void>;
  /** Withdraws a cancellation that has not taken effect yet. */
  resume(stripeSubscriptionId: string | null): Promise<void>;
  /** Stops a subscription that a newer one replaced (a plan change through a new checkout). */
  cancelSuperseded(stripeSubscriptionId: string): Promise<void>;
  /** A webhook delivery checked against its signature and read in Sift's terms; throws when it does not verify. */
  readWebhook(rawBody: Buffer | string, signature: string | undefined): BillingEvent;
}
