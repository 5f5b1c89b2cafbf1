import { z } from 'zod';
import { Uuid } from './common.ts';

// Billing: spec §3 billing entity and §7 "Billing".

export const SubscriptionType = z.enum(['none', 'starter', 'teams', 'enterprise']);
export type SubscriptionType = z.infer<typeof SubscriptionType>;

export const Invoice = z.object({
  date: z.string(),
  subscription_type: SubscriptionType,
  /** In cents. */
  amount: z.number().int(),
});
export type Invoice = z.infer<typeof Invoice>;

export const BillingStatusRequest = z.object({ organization_id: Uuid });
export const BillingStatusResponse = z.object({
  subscription_type: SubscriptionType,
  trial_end_date: z.string().nullable(),
  invoices: z.array(Invoice),
});
export type BillingStatusResponse = z.infer<typeof BillingStatusResponse>;
