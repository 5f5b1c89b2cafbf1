import { useQuery } from '@tanstack/react-query';
import { useCurrentOrganization } from '@/lib/current-organization';
import type { LoadStatus } from '@/lib/current-organization';
import { createProviderClient } from '@/lib/provider-client';

/** The selected organization's collections list: adding a collection invalidates it. */
export const collectionsListKey = (organizationId: string | null) => ['collections', organizationId] as const;

async function fetchCollectionsList(workingKey: string | null): Promise<string[]> {
  if (!workingKey) return [];
  const { collection_names } = await createProviderClient(workingKey).collections.getList();
  return collection_names;
}

/**
 * The organization's collection names (spec §3 "Current organization": collectionsList), empty
 * when it has no API key. Loaded once the organization detail (and so its working key) is in.
 */
export function useCollectionsList(): { status: LoadStatus; collectionsList: string[] } {
  const { organizationId, organization, workingKey, status } = useCurrentOrganization();
  const collections = useQuery({
    queryKey: [...collectionsListKey(organizationId), workingKey],
    queryFn: () => fetchCollectionsList(workingKey),
    enabled: organization !== null,
    retry: false,
  });
  if (status !== 'success') return { status, collectionsList: [] };
  // A failed list reads as no collections, as before: the pickers then say what to do.
  return { status: collections.isPending ? 'loading' : 'success', collectionsList: collections.data ?? [] };
}
