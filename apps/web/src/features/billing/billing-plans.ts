import type { SubscriptionType } from '@sift/contracts';

/**
 * Plans, prices and the models' figures of spec §2 "Billing" and §9: the dashboard's one module
 * for them (the server's is apps/server/src/billing/plans.ts, with the same figures).
 */
export type PlanType = Exclude<SubscriptionType, 'none'>;

export interface Plan {
  type: PlanType;
  name: string;
  /** Monthly price in cents; null for custom pricing. */
  monthlyPriceCents: number | null;
  trialWeeks: number;
  features: readonly string[];
}

export const plans: readonly Plan[] = [
  {
    type: 'starter',
    name: 'Starter',
    monthlyPriceCents: 50_00,
    trialWeeks: 2,
    features: [
      '1,000 queries',
      '1,000,000 tokens of ingestion and storage',
      '10,000 pages of OCR',
      'Metadata filtering',
      'Free for 2 weeks',
    ],
  },
  {
    type: 'teams',
    name: 'Teams',
    monthlyPriceCents: 500_00,
    trialWeeks: 0,
    features: ['20,000 queries', 'Fast ingestion of 100 million tokens a month', '100,000 pages of OCR', 'Unlimited storage'],
  },
  {
    type: 'enterprise',
    name: 'Enterprise',
    monthlyPriceCents: null,
    trialWeeks: 0,
    features: ['On-prem deployment', '99.99% SLA', 'Support'],
  },
];

export const planByType = (type: PlanType): Plan => plans.find((plan) => plan.type === type)!;

/** Plan order, for telling an upgrade from a downgrade. */
export const planRank: Record<SubscriptionType, number> = { none: 0, starter: 1, teams: 2, enterprise: 3 };

/** The Models section's figures (spec §2, §9). */
export const models = {
  reranker: { name: 'zerank-2', pricePerMillionTokensUsd: 0.025, rateLimitBytesPerMinute: 2_000_000 },
  embedding: { name: 'zembed-1' },
} as const;

/**
 * Where Enterprise calls are booked and the embedding preview and on-premises offering are
 * requested. One address to set per deployment.
 */
export const SALES_CONTACT_URL = 'mailto:sales@sift.dev?subject=Sift%20Enterprise';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Invoice amounts are in cents, shown as USD with two decimals (spec §9): 5000 -> "$50.00". */
export const formatUsd = (cents: number): string => usd.format(cents / 100);

/** Plan prices as the plan cards show them: "$50/month", "Custom pricing". */
export const formatPlanPrice = (plan: Plan): string =>
  plan.monthlyPriceCents === null ? 'Custom pricing' : `$${(plan.monthlyPriceCents / 100).toLocaleString('en-US')}/month`;

/** Invoice and plan dates: "November 22, 2026" (UTC). */
export const formatBillingDate = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
