import { EMBED_MODEL_IDS, RERANK_MODEL_IDS, type SubscriptionType } from '@sift/contracts';
import {
  INVOICE_CURRENCY,
  INVOICE_DECIMALS,
  PLAN_MONTHLY_PRICE_CENTS,
  RERANKER_PRICE_PER_MILLION_TOKENS_USD,
  RERANKER_RATE_LIMIT_BYTES_PER_MINUTE,
  STARTER_TRIAL_WEEKS,
} from '@/lib/constants';

/**
 * The plans and models of spec §2 "Billing", built on the figures of spec §9 (lib/constants.ts;
 * the server's table is apps/server/src/billing/plans.ts, with the same figures).
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
    monthlyPriceCents: PLAN_MONTHLY_PRICE_CENTS.starter,
    trialWeeks: STARTER_TRIAL_WEEKS,
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
    monthlyPriceCents: PLAN_MONTHLY_PRICE_CENTS.teams,
    trialWeeks: 0,
    features: ['20,000 queries', 'Fast ingestion of 100 million tokens a month', '100,000 pages of OCR', 'Unlimited storage'],
  },
  {
    type: 'enterprise',
    name: 'Enterprise',
    monthlyPriceCents: PLAN_MONTHLY_PRICE_CENTS.enterprise,
    trialWeeks: 0,
    features: ['On-prem deployment', '99.99% SLA', 'Support'],
  },
];

export const planByType = (type: PlanType): Plan => plans.find((plan) => plan.type === type)!;

/** Plan order, for telling an upgrade from a downgrade. */
export const planRank: Record<SubscriptionType, number> = { none: 0, starter: 1, teams: 2, enterprise: 3 };

/** The Models section's figures (spec §2, §9). */
export const models = {
  reranker: {
    /** The flagship: the first of the models the provider API serves. */
    name: RERANK_MODEL_IDS[0],
    pricePerMillionTokensUsd: RERANKER_PRICE_PER_MILLION_TOKENS_USD,
    rateLimitBytesPerMinute: RERANKER_RATE_LIMIT_BYTES_PER_MINUTE,
  },
  embedding: { name: EMBED_MODEL_IDS[0] },
} as const;

/**
 * Where Enterprise calls are booked and the embedding preview and on-premises offering are
 * requested. One address to set per deployment.
 */
export const SALES_CONTACT_URL = 'mailto:sales@sift.dev?subject=Sift%20Enterprise';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: INVOICE_CURRENCY,
  minimumFractionDigits: INVOICE_DECIMALS,
  maximumFractionDigits: INVOICE_DECIMALS,
});

/** Invoice amounts are in cents, shown as USD with two decimals (spec §9): 5000 -> "$50.00". */
export const formatUsd = (cents: number): string => usd.format(cents / 100);

/** Plan prices as the plan cards show them: "$50/month", "Custom pricing". */
export const formatPlanPrice = (plan: Plan): string =>
  plan.monthlyPriceCents === null ? 'Custom pricing' : `$${(plan.monthlyPriceCents / 100).toLocaleString('en-US')}/month`;

/** Invoice and plan dates: "November 22, 2026" (UTC). */
export const formatBillingDate = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
