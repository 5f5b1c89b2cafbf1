import { expect, test } from 'vitest';
import { formatBillingDate, formatPlanPrice, formatUsd, models, planByType } from '@/features/billing/billing-plans';

test('invoice amounts in cents are shown as USD with two decimals', () => {
  expect(formatUsd(0)).toBe('$0.00');
  expect(formatUsd(5000)).toBe('$50.00');
  expect(formatUsd(50000)).toBe('$500.00');
  expect(formatUsd(1999)).toBe('$19.99');
  expect(formatUsd(123456789)).toBe('$1,234,567.89');
});

test('plan prices are those of spec §9', () => {
  expect(formatPlanPrice(planByType('starter'))).toBe('$50/month');
  expect(formatPlanPrice(planByType('teams'))).toBe('$500/month');
  expect(formatPlanPrice(planByType('enterprise'))).toBe('Custom pricing');
  expect(planByType('starter').trialWeeks).toBe(2);
  expect(models.reranker).toMatchObject({ pricePerMillionTokensUsd: 0.025, rateLimitBytesPerMinute: 2_000_000 });
});

test('invoice dates are long US dates in UTC', () => {
  expect(formatBillingDate('2026-11-22T03:00:00.000Z')).toBe('November 22, 2026');
  expect(formatBillingDate('2026-12-31T23:30:00.000Z')).toBe('December 31, 2026');
});
