/**
 * What a payment processor tells Sift, in Sift's terms. A provider translates its own webhook
 * deliveries into these (billing/stripe-events.ts); domain/billing-events.ts applies them, each event once.
 * Organization and plan may be missing (an event can outlive its organization, or carry no
 * metadata); the subscription row we already hold then fills them in.
 */
export type BillingEvent = {
  id: string;
  /** The processor's own name for the event, recorded as received. */
  type: string;
  at: string;
} & (
  | { kind: 'checkout-completed'; organizationId?: string; planType?: string; subscriptionId: string | null; customerId: string | null }
  | {
      kind: 'subscription-changed';
      change: 'created' | 'updated' | 'deleted';
      subscriptionId: string;
      organizationId?: string;
      planType?: string;
      customerId: string | null;
      startedAt: string | null;
      trialEnd: string | null;
      billingAnchor: string | null;
      cancelAt: string | null;
      /** Set when the processor considers the subscription over. */
      endedAt: string | null;
    }
  | { kind: 'invoice-paid'; invoiceId: string | null; subscriptionId: string | null; organizationId?: string; planType?: string; amount: number; paidAt: string }
  | { kind: 'ignored' }
);
