import { Ok } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

type Input = { email: string };

export const deleteInvite = (input: Input & { organization_id: string }) => postDashboard('/api/organizations/users/delete-invite-user', input, Ok);

/** Withdraws a pending invite, then refetches the organization detail (spec §4). */
export function useDeleteInvite() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: Input) => deleteInvite({ ...input, organization_id: organizationId! }),
    onSuccess: () => Promise.all([organizationKey(organizationId)].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
