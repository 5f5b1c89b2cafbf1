import { ApiKey } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KeyPermission } from '@/features/api-keys/key-permissions';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

const AddedKey = ApiKey.omit({ created_by: true });

export const addApiKey = (input: { organization_id: string; name: string; permission: KeyPermission }) =>
  postDashboard('/api/organizations/api-keys/add-api-key', input, AddedKey);

/** Adds a key to the selected organization, then refetches its detail, where the keys live. */
export function useAddApiKey() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: { name: string; permission: KeyPermission }) => addApiKey({ ...input, organization_id: organizationId! }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
  });
}
