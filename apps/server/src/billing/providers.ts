import type { Config } from '../config.ts';
import { createLocalProvider } from './local-provider.ts';
import type { BillingProvider } from './provider.ts';
import { createStripeProvider } from './stripe-provider.ts';

/** The provider the configuration asks for: `local` by default, `stripe` with STRIPE_SECRET_KEY. */
export function createBillingProvider(config: Config): BillingProvider {
  if (config.billingProvider === 'local') return createLocalProvider();
  if (!config.stripe.secretKey) throw new Error('BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY.');
  return createStripeProvider({ secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret });
}
