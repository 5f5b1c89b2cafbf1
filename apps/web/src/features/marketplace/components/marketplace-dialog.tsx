import { useEffect, useState } from 'react';
import { OrganizationNameDialog } from '@/components/organization-name-dialog';
import { useSession } from '@/lib/current-user';
import { DashboardApiError } from '@/lib/dashboard-api';
import { redirectBrowser, reloadPage } from '@/lib/router';
import { readStored, storageKeys } from '@/lib/storage-keys';
import { addMarketplaceOrganization } from '@/features/marketplace/api/add-marketplace-organization';
import { forgetMarketplace, MARKETPLACES, type Marketplace, pendingMarketplace } from '@/features/marketplace/marketplaces';

/** Onboarding for customers arriving from a marketplace (spec §2, §4). */
export function MarketplaceDialog() {
  const { user } = useSession();
  const [marketplace, setMarketplace] = useState<Marketplace | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setMarketplace(pendingMarketplace()), []);

  if (!user || !marketplace) return null;
  const { title, tokenKey, field } = MARKETPLACES[marketplace];

  const close = () => {
    forgetMarketplace(marketplace);
    setMarketplace(null);
  };
  const submit = async (name: string) => {
    setBusy(true);
    setError(null);
    try {
      await addMarketplaceOrganization(name, field, readStored(tokenKey));
      const successUrl = marketplace === 'vercel' ? readStored(storageKeys.vercelMarketplaceSuccessUrl) : null;
      forgetMarketplace(marketplace);
      if (successUrl) redirectBrowser(successUrl);
      else reloadPage();
    } catch (failure) {
      setError(failure instanceof DashboardApiError ? (failure.detail ?? 'Failed to create organization') : failure instanceof Error ? failure.message || 'Failed to create organization' : 'Unknown error');
      setBusy(false);
    }
  };

  return (
    <OrganizationNameDialog
      open
      title={title}
      placeholder="Enter organization name"
      submitLabel="Create Organization"
      busyLabel="Creating..."
      busy={busy}
      error={error}
      onClose={close}
      onSubmit={(name) => void submit(name)}
    />
  );
}
