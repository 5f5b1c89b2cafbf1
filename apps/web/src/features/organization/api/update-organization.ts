import { Ok } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { USER_KEY } from '@/lib/current-user';
import { postDashboard } from '@/lib/dashboard-api';

type Input = { name: string };

export const updateOrganization = (input: Input & { organization_id: string }) => postDashboard('/api/organizations/update-organization', input, Ok);

/** Renames the selected organization, then refetches its detail and the user's list of organizations (the header shows the name). */
export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: Input) => updateOrganization({ ...input, organization_id: organizationId! }),
    onSuccess: () => Promise.all([organizationKey(organizationId), USER_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
