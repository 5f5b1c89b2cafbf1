import { Ok } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KeyPermission } from '@/features/api-keys/key-permissions';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

type UpdateInput = { api_key_id: string } & ({ name: string } | { permission: KeyPermission });

export const updateApiKey = (input: UpdateInput & { organization_id: string }) => postDashboard('/api/organizations/api-keys/update-api-key', input, Ok);

/** Renames a key or changes its permission, then refetches the organization detail. */
export function useUpdateApiKey() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: UpdateInput) => updateApiKey({ ...input, organization_id: organizationId! }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
  });
}
