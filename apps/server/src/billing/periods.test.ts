import { describe, expect, test } from 'vitest';
import { addMonths, paidPeriodAt, paidPeriodStartsUntil, subscriptionState } from './periods.ts';

const iso = (text: string) => new Date(text);

describe('billing periods', () => {
  test('a month after the 31st of January is the last day of February', () => {
    expect(addMonths(iso('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(iso('2026-01-31T10:00:00Z'), 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonths(iso('2026-11-30T00:00:00Z'), 3).toISOString()).toBe('2027-02-28T00:00:00.000Z');
  });

  test('the paid period holding a moment is counted in whole months from the anchor', () => {
    const period = paidPeriodAt(iso('2026-01-31T10:00:00Z'), iso('2026-03-15T00:00:00Z'));
    expect(period.start.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(period.end.toISOString()).toBe('2026-03-31T10:00:00.000Z');
    const first = paidPeriodAt(iso('2026-11-22T03:00:00Z'), iso('2026-11-22T03:00:00Z'));
    expect(first.start.toISOString()).toBe('2026-11-22T03:00:00.000Z');
  });

  const facts = {
    subscription_type: 'starter' as const,
    started_at: '2026-11-01T00:00:00.000Z',
    trial_end: '2026-11-15T00:00:00.000Z',
    billing_anchor: '2026-11-15T00:00:00.000Z',
    cancel_at: null,
    ended_at: null,
  };

  test('during the trial the period is the trial, and the trial end is reported', () => {
    const state = subscriptionState(facts, iso('2026-11-10T00:00:00Z'));
    expect(state.subscriptionType).toBe('starter');
    expect(state.period).toEqual({ start: iso(facts.started_at), end: iso(facts.trial_end) });
    expect(state.trialEnd).toEqual(iso(facts.trial_end));
  });

  test('after the trial the period is the paid month and no trial end is reported', () => {
    const state = subscriptionState(facts, iso('2026-12-20T00:00:00Z'));
    expect(state.period).toEqual({ start: iso('2026-12-15T00:00:00Z'), end: iso('2027-01-15T00:00:00Z') });
    expect(state.trialEnd).toBeNull();
  });

  test('a cancelled plan is none from the moment the cancellation takes effect', () => {
    const cancelled = { ...facts, cancel_at: '2026-12-15T00:00:00.000Z' };
    expect(subscriptionState(cancelled, iso('2026-12-14T23:59:59Z')).subscriptionType).toBe('starter');
    expect(subscriptionState(cancelled, iso('2026-12-15T00:00:00Z'))).toEqual({ subscriptionType: 'none', period: null, trialEnd: null, cancelAt: null });
    expect(subscriptionState(undefined, iso('2026-12-15T00:00:00Z')).subscriptionType).toBe('none');
  });

  test('paid months are invoiced from the anchor until now, and not after a cancellation', () => {
    expect(paidPeriodStartsUntil(facts, iso('2026-11-10T00:00:00Z'))).toEqual([]);
    expect(paidPeriodStartsUntil(facts, iso('2027-01-15T00:00:00Z')).map((d) => d.toISOString())).toEqual([
      '2026-11-15T00:00:00.000Z',
      '2026-12-15T00:00:00.000Z',
      '2027-01-15T00:00:00.000Z',
    ]);
    expect(paidPeriodStartsUntil({ ...facts, cancel_at: '2026-12-15T00:00:00.000Z' }, iso('2027-03-01T00:00:00Z'))).toHaveLength(1);
  });
});
