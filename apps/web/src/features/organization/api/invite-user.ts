import { InviteUserResponse } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberPermission } from '@/features/organization/member-permissions';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

type Input = { email: string; permission: MemberPermission };

export const inviteUser = (input: Input & { organization_id: string }) => postDashboard('/api/organizations/users/invite-user', input, InviteUserResponse);

/** Invites someone by e-mail; the organization detail is refetched to show the pending invite (spec §4). */
export function useInviteUser() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: Input) => inviteUser({ ...input, organization_id: organizationId! }),
    onSuccess: () => Promise.all([organizationKey(organizationId)].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
