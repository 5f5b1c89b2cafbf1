import { useEffect, useState } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input, Label } from '@/components/ui/input';
import { useSession } from '@/lib/current-user';
import { DashboardApiError } from '@/lib/dashboard-api';
import { redirectBrowser, reloadPage } from '@/lib/router';
import { readStored, storageKeys } from '@/lib/storage-keys';
import { addMarketplaceOrganization } from '../api/add-marketplace-organization';
import { forgetMarketplace, MARKETPLACES, type Marketplace, pendingMarketplace } from '../marketplaces';

/** Onboarding for customers arriving from a marketplace (spec §2, §4). */
export function MarketplaceDialog() {
  const { user } = useSession();
  const [marketplace, setMarketplace] = useState<Marketplace | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setMarketplace(pendingMarketplace()), []);

  if (!user || !marketplace) return null;
  const { title, tokenKey, field } = MARKETPLACES[marketplace];

  const close = () => {
    forgetMarketplace(marketplace);
    setMarketplace(null);
  };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await addMarketplaceOrganization(name.trim(), field, readStored(tokenKey));
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
    <FormDialog open onClose={close} busy={busy} title={title} submitLabel="Create Organization" busyLabel="Creating..." submitDisabled={name.trim() === ''} onSubmit={submit}>
      <div>
        <Label htmlFor="marketplace-organization-name">Organization Name</Label>
        <Input id="marketplace-organization-name" placeholder="Enter organization name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
        {error ? (
          <p role="alert" className="mt-2 text-sm text-red-600">
            {error}
          </p>
        ) : null}
      </div>
    </FormDialog>
  );
}
