import type { SubscriptionType } from '@sift/contracts';
import { type PlanType, planRank } from '@/features/billing/billing-plans';

export type PlanButtonLabel = 'Try now' | 'Upgrade' | 'Downgrade' | 'Book a call' | 'Current plan';

export interface PlanButton {
  label: PlanButtonLabel;
  disabled: boolean;
  /** subscribe: the confirmation modal, then checkout; book-call: the sales contact. */
  action: 'subscribe' | 'book-call' | 'none';
}

/**
 * A plan card's button (spec §2): from none to Starter or Teams 'Try now'; Starter to Teams
 * 'Upgrade'; Teams to Starter 'Downgrade'; Enterprise is reached by booking a call; the current
 * plan's button is disabled.
 */
export function planButton(current: SubscriptionType, target: PlanType): PlanButton {
  if (current === target) return { label: 'Current plan', disabled: true, action: 'none' };
  if (target === 'enterprise') return { label: 'Book a call', disabled: false, action: 'book-call' };
  if (current === 'none') return { label: 'Try now', disabled: false, action: 'subscribe' };
  return { label: planRank[target] > planRank[current] ? 'Upgrade' : 'Downgrade', disabled: false, action: 'subscribe' };
}
