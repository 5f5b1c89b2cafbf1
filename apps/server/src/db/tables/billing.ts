/**
 * Subscriptions and invoices (spec §3 billing entity). Times are ISO strings.
 * One subscription row per organization: the plan it is on (or was on, when `ended_at` is set),
 * from which the current billing period is computed (see billing/periods.ts).
 */
export interface BillingTables {
  subscriptions: {
    organization_id: string;
    subscription_type: 'starter' | 'teams' | 'enterprise';
    provider: 'local' | 'stripe';
    started_at: string;
    /** End of the free trial, when the plan started with one. */
    trial_end: string | null;
    /** Start of the first paid period; paid periods are whole months from it. */
    billing_anchor: string;
    /** When a cancelled plan returns to none (the end of the period it was cancelled in). */
    cancel_at: string | null;
    ended_at: string | null;
    /** 1 once the organization has had its free trial: it is given once. */
    trial_used: number;
    stripe_customer_id: string | null;
    stripe_subscription_id: string | null;
    updated_at: string;
  };
  invoices: {
    id: string;
    organization_id: string;
    subscription_type: 'starter' | 'teams' | 'enterprise';
    /** In cents. */
    amount: number;
    date: string;
    /** What wrote it (a local period, a Stripe invoice id): unique, so writing twice writes once. */
    source_id: string;
    created_at: string;
  };
  /** The local provider's checkout pages: an unguessable id that one owner's confirmation spends. */
  checkout_sessions: {
    id: string;
    organization_id: string;
    subscription_type: 'starter' | 'teams';
    user_id: string;
    with_trial: number;
    created_at: string;
    expires_at: string;
    completed_at: string | null;
  };
  /** Stripe webhook events already applied (idempotency). */
  billing_events: { id: string; type: string; received_at: string };
}
