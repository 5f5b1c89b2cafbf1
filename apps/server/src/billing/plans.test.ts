import { expect, test } from 'vitest';
import { formatUsd, models, plans } from './plans.ts';

test('plans carry the prices and trial of spec §9', () => {
  expect(plans.starter).toMatchObject({ name: 'Starter', monthlyPriceCents: 5000, trialDays: 14 });
  expect(plans.teams).toMatchObject({ name: 'Teams', monthlyPriceCents: 50000, trialDays: 0 });
  expect(plans.enterprise).toMatchObject({ name: 'Enterprise', monthlyPriceCents: null });
  expect(models.reranker).toEqual({ pricePerMillionTokensUsd: 0.025, rateLimitBytesPerMinute: 2_000_000 });
});

test('cents are shown as USD with two decimals', () => {
  expect(formatUsd(5000)).toBe('$50.00');
  expect(formatUsd(50000)).toBe('$500.00');
  expect(formatUsd(0)).toBe('$0.00');
  expect(formatUsd(1999)).toBe('$19.99');
});
