import { type BillingStatusResponse, BillingStatusResponse as BillingStatusSchema, OrganizationDetail } from '@sift/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useSession } from './current-user';
import { DashboardApiError, postDashboard } from './dashboard-api';
import { messages } from './messages';
import { selectOrganization } from './organization-selection';
import { readStored, storageKeys, writeStored } from './storage-keys';

export type LoadStatus = 'idle' | 'loading' | 'success' | 'error';

export interface CurrentOrganization {
  status: LoadStatus;
  /** The user belongs to no organization: every organization screen shows the same empty state. */
  noOrganization: boolean;
  /** The message to show when status is error. */
  error: string | null;
  organizationId: string | null;
  organization: OrganizationDetail | null;
  permission: 'OWNER' | 'MEMBER' | null;
  /** The organization's first API key, used for provider calls; null when it has none. */
  workingKey: string | null;
  collectionsList: string[];
  billing: BillingStatusResponse | null;
  selectOrganization(id: string): void;
  /** Refetches the organization detail (after invites, key changes...). */
  reloadOrganization(): Promise<void>;
  reloadCollections(): Promise<void>;
}

const OrganizationContext = createContext<CurrentOrganization | null>(null);

async function fetchOrganizationInfo(organizationId: string) {
  try {
    return await postDashboard('/api/organizations/get-info', { organization_id: organizationId }, OrganizationDetail);
  } catch (error) {
    if (error instanceof DashboardApiError) throw new Error(messages.organizationFetchFailed(error.status));
    throw error;
  }
}

/** A billing status failure leaves billing empty (spec §4, §8: only logged). */
async function fetchBillingStatus(organizationId: string) {
  try {
    return await postDashboard('/billing/status', { organization_id: organizationId }, BillingStatusSchema);
  } catch (error) {
    console.error('billing status failed', error);
    return null;
  }
}

async function fetchCollectionsList(workingKey: string | null): Promise<string[]> {
  if (!workingKey) return [];
  // Loaded on demand: the provider SDK stays out of the first-load bundle.
  const { createProviderClient } = await import('./provider-client');
  const { collection_names } = await createProviderClient(workingKey).collections.getList();
  return collection_names;
}

/**
 * The selected organization and what is loaded with it (spec §4): its detail and working key,
 * its billing status and its collections list. Queries are keyed by organization id, so a
 * result that arrives after the user switched away is never shown for the new one.
 */
export function OrganizationProvider({ children }: { children: ReactNode }) {
  const { user, organizations, loadingUser } = useSession();
  const queryClient = useQueryClient();
  const [requested, setRequested] = useState<string | null>(null);
  const organizationId = user
    ? selectOrganization(organizations.map((o) => o.id), requested, readStored(storageKeys.selectedOrganizationId))
    : null;

  const info = useQuery({
    queryKey: ['organization', organizationId],
    queryFn: () => fetchOrganizationInfo(organizationId!),
    enabled: organizationId !== null,
    retry: false,
  });
  const billing = useQuery({
    queryKey: ['billing', organizationId],
    queryFn: () => fetchBillingStatus(organizationId!),
    enabled: organizationId !== null,
  });
  const workingKey = info.data?.api_keys[0]?.api_key ?? null;
  const collections = useQuery({
    queryKey: ['collections', organizationId, workingKey],
    queryFn: () => fetchCollectionsList(workingKey),
    enabled: info.data !== undefined,
    retry: false,
  });

  const select = useCallback((id: string) => {
    writeStored(storageKeys.selectedOrganizationId, id);
    setRequested(id);
  }, []);
  const reloadOrganization = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['organization', organizationId] }),
    [queryClient, organizationId],
  );
  const reloadCollections = useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['collections', organizationId] }),
    [queryClient, organizationId],
  );

  const value = useMemo<CurrentOrganization>(() => {
    let status: LoadStatus = 'idle';
    let error: string | null = null;
    if (user && organizations.length === 0) {
      status = 'error';
      error = messages.noOrganization;
    } else if (info.error) {
      status = 'error';
      error = messages.organizationLoadFailed(info.error.message);
    } else if (info.data && !billing.isPending && !collections.isPending) {
      status = 'success';
    } else if (organizationId || (!user && loadingUser)) {
      status = 'loading';
    }
    const permission = organizations.find((o) => o.id === organizationId)?.permission ?? null;
    return {
      status,
      noOrganization: user !== null && organizations.length === 0,
      error,
      organizationId,
      organization: info.data ?? null,
      permission,
      workingKey,
      collectionsList: collections.data ?? [],
      billing: billing.data ?? null,
      selectOrganization: select,
      reloadOrganization,
      reloadCollections,
    };
  }, [user, loadingUser, organizations, info.data, info.error, billing.data, billing.isPending, collections.data, collections.isPending, organizationId, workingKey, select, reloadOrganization, reloadCollections]);

  return <OrganizationContext.Provider value={value}>{children}</OrganizationContext.Provider>;
}

export function useCurrentOrganization(): CurrentOrganization {
  const current = useContext(OrganizationContext);
  if (!current) throw new Error('useCurrentOrganization outside OrganizationProvider');
  return current;
}
