import { Ok } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

export const deleteApiKey = (input: { organization_id: string; api_key_id: string }) => postDashboard('/api/organizations/api-keys/delete-api-key', input, Ok);

/** Deletes a key of the selected organization, then refetches its detail (the working key may change). */
export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: { api_key_id: string }) => deleteApiKey({ ...input, organization_id: organizationId! }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
  });
}
