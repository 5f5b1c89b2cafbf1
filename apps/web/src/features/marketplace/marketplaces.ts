import { readStored, removeStored, storageKeys, writeStored } from '@/lib/storage-keys';

/**
 * The two marketplaces a customer can arrive from. Their token reaches the dashboard as a query
 * parameter of the same name, is kept in local storage until the onboarding dialog finishes, and
 * is sent with the new organization.
 */
export const MARKETPLACES = {
  aws: { title: 'Welcome to Sift from AWS Marketplace!', tokenKey: storageKeys.awsMarketplaceToken, field: 'aws_marketplace_token' },
  vercel: { title: 'Welcome to Sift from Vercel Marketplace!', tokenKey: storageKeys.vercelMarketplaceToken, field: 'vercel_marketplace_token' },
} as const;
export type Marketplace = keyof typeof MARKETPLACES;

const SUCCESS_URL_PARAM = 'vercel_success_url';

/**
 * On startup, before any redirect to sign-in: marketplace parameters of the address move into
 * local storage, so they survive the sign-in round trip, and leave the address.
 */
export function captureMarketplaceArrival(): void {
  const url = new URL(window.location.href);
  let captured = false;
  for (const { field, tokenKey } of Object.values(MARKETPLACES)) {
    const token = url.searchParams.get(field);
    if (token) writeStored(tokenKey, token);
    captured ||= url.searchParams.has(field);
    url.searchParams.delete(field);
  }
  const successUrl = url.searchParams.get(SUCCESS_URL_PARAM);
  if (successUrl) writeStored(storageKeys.vercelMarketplaceSuccessUrl, successUrl);
  captured ||= url.searchParams.has(SUCCESS_URL_PARAM);
  url.searchParams.delete(SUCCESS_URL_PARAM);
  if (captured) window.history.replaceState(null, '', url.pathname + url.search + url.hash);
}

/** Which dialog opens on startup: the cloud marketplace first, then the hosting one. */
export function pendingMarketplace(): Marketplace | null {
  if (readStored(storageKeys.awsMarketplaceToken)) return 'aws';
  if (readStored(storageKeys.vercelMarketplaceToken)) return 'vercel';
  return null;
}

export function forgetMarketplace(marketplace: Marketplace): void {
  removeStored(MARKETPLACES[marketplace].tokenKey);
  if (marketplace === 'vercel') removeStored(storageKeys.vercelMarketplaceSuccessUrl);
}
