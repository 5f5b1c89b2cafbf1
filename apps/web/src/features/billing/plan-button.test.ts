import type { SubscriptionType } from '@sift/contracts';
import { describe, expect, test } from 'vitest';
import type { PlanType } from '@/features/billing/billing-plans';
import { planButton } from '@/features/billing/plan-button';

const table: [SubscriptionType, PlanType, string, boolean][] = [
  ['none', 'starter', 'Try now', false],
  ['none', 'teams', 'Try now', false],
  ['none', 'enterprise', 'Book a call', false],
  ['starter', 'starter', 'Current plan', true],
  ['starter', 'teams', 'Upgrade', false],
  ['starter', 'enterprise', 'Book a call', false],
  ['teams', 'starter', 'Downgrade', false],
  ['teams', 'teams', 'Current plan', true],
  ['teams', 'enterprise', 'Book a call', false],
  ['enterprise', 'starter', 'Downgrade', false],
  ['enterprise', 'teams', 'Downgrade', false],
  ['enterprise', 'enterprise', 'Current plan', true],
];

describe('plan buttons', () => {
  test.each(table)('on %s, the %s card reads %s (disabled: %s)', (current, target, label, disabled) => {
    expect(planButton(current, target)).toMatchObject({ label, disabled });
  });

  test('Enterprise is reached by booking a call, the others through checkout', () => {
    expect(planButton('none', 'enterprise').action).toBe('book-call');
    expect(planButton('starter', 'teams').action).toBe('subscribe');
    expect(planButton('teams', 'teams').action).toBe('none');
  });
});
