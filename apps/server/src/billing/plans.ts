/**
 * Plans, prices and the models' figures: spec §2 "Billing" and §9, in one table. Everything that
 * charges, shows or checks a plan reads it from here; the dashboard shows the same figures from
 * its spec §9 module, apps/web/src/lib/constants.ts.
 */
import { RERANK_BYTES_PER_MINUTE } from '../domain/limits.ts';

export type PlanType = 'starter' | 'teams' | 'enterprise';
export type SubscriptionType = 'none' | PlanType;
/** Plans an owner can buy by themselves; Enterprise is reached by booking a call. */
export type SelfServePlanType = 'starter' | 'teams';

export interface Plan {
  type: PlanType;
  name: string;
  /** Monthly price in cents; null for custom pricing. */
  monthlyPriceCents: number | null;
  /** Free trial given once per organization, in days (0: none). */
  trialDays: number;
  features: readonly string[];
}

export const plans: Record<PlanType, Plan> = {
  starter: {
    type: 'starter',
    name: 'Starter',
    monthlyPriceCents: 50_00,
    trialDays: 14,
    features: [
      '1,000 queries',
      '1,000,000 tokens of ingestion and storage',
      '10,000 pages of OCR',
      'Metadata filtering',
      'Free for 2 weeks',
    ],
  },
  teams: {
    type: 'teams',
    name: 'Teams',
    monthlyPriceCents: 500_00,
    trialDays: 0,
    features: ['20,000 queries', 'Fast ingestion of 100 million tokens a month', '100,000 pages of OCR', 'Unlimited storage'],
  },
  enterprise: {
    type: 'enterprise',
    name: 'Enterprise',
    monthlyPriceCents: null,
    trialDays: 0,
    features: ['On-prem deployment', '99.99% SLA', 'Support'],
  },
};

export const isSelfServe = (type: string): type is SelfServePlanType => type === 'starter' || type === 'teams';

/** The models section's figures (spec §2, §9). */
export const models = {
  reranker: { pricePerMillionTokensUsd: 0.025, rateLimitBytesPerMinute: RERANK_BYTES_PER_MINUTE },
} as const;

/** Cents as USD with two decimals: 5000 -> "$50.00". */
export const formatUsd = (cents: number): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(cents / 100);
