import { OrganizationDetail } from '@sift/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useSession } from '@/lib/current-user';
import { DashboardApiError, postDashboard } from '@/lib/dashboard-api';
import { messages } from '@/lib/messages';
import { selectOrganization } from '@/lib/organization-selection';
import { readStored, storageKeys, writeStored } from '@/lib/storage-keys';

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
  /**
   * The key the dashboard's own writes (New Collection, uploads) use: the first key with All
   * Permissions, so a Read Only first key does not turn them into a 403; null when there is none.
   */
  writeKey: string | null;
  selectOrganization(id: string): void;
  /** Refetches the organization detail (after invites, key changes...). */
  reloadOrganization(): Promise<void>;
}

const OrganizationContext = createContext<CurrentOrganization | null>(null);

/** The organization detail's query: a mutation that changes members, invites, keys or the name invalidates it. */
export const organizationKey = (organizationId: string | null) => ['organization', organizationId] as const;

async function fetchOrganizationInfo(organizationId: string) {
  try {
    return await postDashboard('/api/organizations/get-info', { organization_id: organizationId }, OrganizationDetail);
  } catch (error) {
    if (error instanceof DashboardApiError) throw new Error(messages.organizationFetchFailed(error.status));
    throw error;
  }
}

/**
 * The selected organization (spec §4): its detail and working key. Its billing status and its
 * collections list load beside it (features/billing/api/get-billing-status.ts,
 * lib/collections-list.ts). Queries are keyed by organization id, so a result that arrives after
 * the user switched away is never shown for the new one.
 */
export function OrganizationProvider({ children }: { children: ReactNode }) {
  const { user, organizations, loadingUser } = useSession();
  const queryClient = useQueryClient();
  const [requested, setRequested] = useState<string | null>(null);
  const organizationId = user
    ? selectOrganization(organizations.map((o) => o.id), requested, readStored(storageKeys.selectedOrganizationId))
    : null;

  const info = useQuery({
    queryKey: organizationKey(organizationId),
    queryFn: () => fetchOrganizationInfo(organizationId!),
    enabled: organizationId !== null,
    retry: false,
  });
  const workingKey = info.data?.api_keys[0]?.api_key ?? null;
  const writeKey = info.data?.api_keys.find((key) => key.permission === 'all')?.api_key ?? null;

  const select = useCallback((id: string) => {
    writeStored(storageKeys.selectedOrganizationId, id);
    setRequested(id);
  }, []);
  const reloadOrganization = useCallback(
    () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
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
    } else if (info.data) {
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
      writeKey,
      selectOrganization: select,
      reloadOrganization,
    };
  }, [user, loadingUser, organizations, info.data, info.error, organizationId, workingKey, writeKey, select, reloadOrganization]);

  return <OrganizationContext.Provider value={value}>{children}</OrganizationContext.Provider>;
}

export function useCurrentOrganization(): CurrentOrganization {
  const current = useContext(OrganizationContext);
  if (!current) throw new Error('useCurrentOrganization outside OrganizationProvider');
  return current;
}
