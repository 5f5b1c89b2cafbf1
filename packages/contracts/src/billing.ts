import * as z from 'zod';
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
  /** End of the current billing period (the trial, else the paid month); null on no plan. */
  current_period_end: z.string().nullable().optional(),
  /** When a cancelled plan returns to none; null while it renews. */
  cancel_at: z.string().nullable().optional(),
  invoices: z.array(Invoice),
});
export type BillingStatusResponse = z.infer<typeof BillingStatusResponse>;

export const SubscribeRequest = z.object({ organization_id: Uuid, subscription_type: SubscriptionType });
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;
export const SubscribeResponse = z.object({ redirect_url: z.string() });
export type SubscribeResponse = z.infer<typeof SubscribeResponse>;

/** /billing/pause cancels the plan at the end of its period. */
export const PauseRequest = z.object({ organization_id: Uuid });
export type PauseRequest = z.infer<typeof PauseRequest>;
export const PauseResponse = z.object({ message: z.string() });
export type PauseResponse = z.infer<typeof PauseResponse>;
