import type { PlanType, SubscriptionType } from './plans.ts';

/** The stored facts a subscription's state is computed from (one row of `subscriptions`). */
export interface SubscriptionFacts {
  subscription_type: PlanType;
  started_at: string;
  trial_end: string | null;
  billing_anchor: string;
  cancel_at: string | null;
  ended_at: string | null;
}

export interface Period {
  start: Date;
  end: Date;
}

export interface SubscriptionState {
  subscriptionType: SubscriptionType;
  /** The current period: the trial, else the paid month now falls in; null on no plan. */
  period: Period | null;
  /** End of the free trial while it runs. */
  trialEnd: Date | null;
  /** When the plan returns to none, once cancelled. */
  cancelAt: Date | null;
}

const DAY_MS = 86_400_000;

export const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY_MS);

/** `anchor` plus n calendar months (UTC), clamped to the end of shorter months: Jan 31 + 1 = Feb 28. */
export function addMonths(anchor: Date, months: number): Date {
  const target = new Date(anchor.getTime());
  const day = anchor.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

/** The paid month [anchor + n, anchor + n + 1) that holds `now` (now >= anchor). */
export function paidPeriodAt(anchor: Date, now: Date): Period {
  let n = Math.max(0, (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + now.getUTCMonth() - anchor.getUTCMonth() - 1);
  while (addMonths(anchor, n + 1) <= now) n += 1;
  return { start: addMonths(anchor, n), end: addMonths(anchor, n + 1) };
}

/** Starts of the paid months that have begun by `now` (and before the plan ends), oldest first. */
export function paidPeriodStartsUntil(facts: SubscriptionFacts, now: Date, limit = 240): Date[] {
  const anchor = new Date(facts.billing_anchor);
  const stop = endOf(facts);
  const starts: Date[] = [];
  for (let n = 0; starts.length < limit; n += 1) {
    const start = addMonths(anchor, n);
    if (start > now || (stop && start >= stop)) break;
    starts.push(start);
  }
  return starts;
}

/** When the plan stops: ended, or the moment a cancellation takes effect. */
const endOf = (facts: SubscriptionFacts): Date | null => {
  const ends = [facts.ended_at, facts.cancel_at].filter((value): value is string => value !== null).map((value) => new Date(value));
  return ends.length ? new Date(Math.min(...ends.map(Number))) : null;
};

/** What a subscription amounts to at `now`: spec §4, a cancelled plan returns to none at the end of its period. */
export function subscriptionState(facts: SubscriptionFacts | undefined, now: Date): SubscriptionState {
  const none: SubscriptionState = { subscriptionType: 'none', period: null, trialEnd: null, cancelAt: null };
  if (!facts) return none;
  const stop = endOf(facts);
  if (stop && now >= stop) return none;
  const trialEnd = facts.trial_end ? new Date(facts.trial_end) : null;
  const inTrial = trialEnd !== null && now < trialEnd;
  const anchor = new Date(facts.billing_anchor);
  const period = inTrial
    ? { start: new Date(facts.started_at), end: trialEnd }
    : now < anchor
      ? { start: new Date(facts.started_at), end: anchor }
      : paidPeriodAt(anchor, now);
  return {
    subscriptionType: facts.subscription_type,
    period,
    trialEnd: inTrial ? trialEnd : null,
    cancelAt: facts.cancel_at ? new Date(facts.cancel_at) : null,
  };
}
