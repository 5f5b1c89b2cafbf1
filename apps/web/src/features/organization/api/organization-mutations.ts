import { InviteUserResponse, Ok } from '@sift/contracts';
import { useMutation } from '@tanstack/react-query';
import { useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

type Permission = 'OWNER' | 'MEMBER';
type InOrganization<I> = I & { organization_id: string };

export const updateOrganization = (input: InOrganization<{ name: string }>) =>
  postDashboard('/api/organizations/update-organization', input, Ok);
export const deleteOrganization = (input: InOrganization<object>) => postDashboard('/api/organizations/delete-organization', input, Ok);
export const inviteUser = (input: InOrganization<{ email: string; permission: Permission }>) =>
  postDashboard('/api/organizations/users/invite-user', input, InviteUserResponse);
export const updateUser = (input: InOrganization<{ user_id: string; permission: Permission }>) =>
  postDashboard('/api/organizations/users/update-user', input, Ok);
export const removeUser = (input: InOrganization<{ user_id: string }>) => postDashboard('/api/organizations/users/remove-user', input, Ok);
export const deleteInvite = (input: InOrganization<{ email: string }>) => postDashboard('/api/organizations/users/delete-invite-user', input, Ok);

/** A call on the selected organization; what happens after (reload, navigation) is the caller's. */
function useOrganizationMutation<I, R>(call: (input: InOrganization<I>) => Promise<R>) {
  const { organizationId } = useCurrentOrganization();
  return useMutation({ mutationFn: (input: I) => call({ ...input, organization_id: organizationId! }) });
}

export const useUpdateOrganization = () => useOrganizationMutation(updateOrganization);
export const useDeleteOrganization = () => useOrganizationMutation(deleteOrganization);
export const useInviteUser = () => useOrganizationMutation(inviteUser);
export const useUpdateUser = () => useOrganizationMutation(updateUser);
export const useRemoveUser = () => useOrganizationMutation(removeUser);
export const useDeleteInvite = () => useOrganizationMutation(deleteInvite);
