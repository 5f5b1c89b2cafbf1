/** Everything the dashboard keeps in local storage (spec §3, §9). */
export const storageKeys = {
  sessionToken: 'sift.session_token',
  selectedOrganizationId: 'sift.selected_organization_id',
  awsMarketplaceToken: 'sift.aws_marketplace_token',
  vercelMarketplaceToken: 'sift.vercel_marketplace_token',
  vercelMarketplaceSuccessUrl: 'sift.vercel_marketplace_success_url',
} as const;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

export const readStored = (key: StorageKey): string | null => localStorage.getItem(key);
export const writeStored = (key: StorageKey, value: string): void => localStorage.setItem(key, value);
export const removeStored = (key: StorageKey): void => localStorage.removeItem(key);
