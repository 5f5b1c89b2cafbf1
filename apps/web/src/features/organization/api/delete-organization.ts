import { Ok } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCurrentOrganization } from '@/lib/current-organization';
import { USER_KEY } from '@/lib/current-user';
import { postDashboard } from '@/lib/dashboard-api';

type Input = object;

export const deleteOrganization = (input: Input & { organization_id: string }) => postDashboard('/api/organizations/delete-organization', input, Ok);

/** Deletes the selected organization, then refetches the user's organizations. */
export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: Input) => deleteOrganization({ ...input, organization_id: organizationId! }),
    onSuccess: () => Promise.all([USER_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
