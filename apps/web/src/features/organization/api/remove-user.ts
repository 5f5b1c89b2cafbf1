import { Ok } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { organizationKey, useCurrentOrganization } from '@/lib/current-organization';
import { USER_KEY, useSession } from '@/lib/current-user';
import { postDashboard } from '@/lib/dashboard-api';

type Input = { user_id: string };

export const removeUser = (input: Input & { organization_id: string }) => postDashboard('/api/organizations/users/remove-user', input, Ok);

/**
 * Removes a member, then refetches the organization detail; when the user removed themself
 * (leaving), their list of organizations instead: the left organization's detail is gone.
 */
export function useRemoveUser() {
  const queryClient = useQueryClient();
  const { organizationId } = useCurrentOrganization();
  const { user } = useSession();
  return useMutation({
    mutationFn: (input: Input) => removeUser({ ...input, organization_id: organizationId! }),
    onSuccess: (_answer, input) => queryClient.invalidateQueries({ queryKey: input.user_id === user?.id ? USER_KEY : organizationKey(organizationId) }),
  });
}
