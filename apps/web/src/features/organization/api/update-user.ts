import { Ok } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberPermission } from '@/features/organization/member-permissions';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { USER_KEY } from '@/lib/current-user';
import { postDashboard } from '@/lib/dashboard-api';

type Input = { user_id: string; permission: MemberPermission };

export const updateUser = (input: Input & { organization_id: string }) => postDashboard('/api/organizations/users/update-user', input, Ok);

/** Changes a member's permission, then refetches the organization detail and the user's organizations (their permission shows there). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: Input) => updateUser({ ...input, organization_id: organizationId! }),
    onSuccess: () => Promise.all([organizationKey(organizationId), USER_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
