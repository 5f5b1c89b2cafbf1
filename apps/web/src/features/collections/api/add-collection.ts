import { useMutation, useQueryClient } from '@tanstack/react-query';
import { collectionsListKey } from '@/lib/collections-list';
import { useCurrentOrganization } from '@/lib/current-organization';
import { createProviderClient } from '@/lib/provider-client';

export async function addCollection(workingKey: string, collectionName: string): Promise<void> {
  await createProviderClient(workingKey).collections.add({ collection_name: collectionName });
}

/** Creates a collection with the write key, then reloads the organization's collections list. */
export function useAddCollection() {
  const queryClient = useQueryClient();
  const { organizationId, writeKey } = useCurrentOrganization();
  return useMutation({
    mutationFn: (collectionName: string) => {
      if (!writeKey) throw new Error('No API key with All Permissions is available.');
      return addCollection(writeKey, collectionName);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionsListKey(organizationId) }),
  });
}
