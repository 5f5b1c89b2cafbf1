import { ApiKey, Ok } from '@sift/contracts';
import { useMutation } from '@tanstack/react-query';
import { useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

export type KeyPermission = 'all' | 'read_only';

const AddedKey = ApiKey.omit({ created_by: true });

type InOrganization<I> = I & { organization_id: string };
type AddInput = { name: string; permission: KeyPermission };
type DeleteInput = { api_key_id: string };
type UpdateInput = { api_key_id: string } & ({ name: string } | { permission: KeyPermission });

export const addApiKey = (input: InOrganization<AddInput>) => postDashboard('/api/organizations/api-keys/add-api-key', input, AddedKey);
export const deleteApiKey = (input: InOrganization<DeleteInput>) => postDashboard('/api/organizations/api-keys/delete-api-key', input, Ok);
export const updateApiKey = (input: InOrganization<UpdateInput>) => postDashboard('/api/organizations/api-keys/update-api-key', input, Ok);

/** Each change refetches the organization detail, where the keys (and the working key) live. */
function useKeyMutation<I>(call: (input: InOrganization<I>) => Promise<unknown>) {
  const { organizationId, reloadOrganization } = useCurrentOrganization();
  return useMutation({
    mutationFn: (input: I) => call({ ...input, organization_id: organizationId! }),
    onSuccess: () => reloadOrganization(),
  });
}

export const useAddApiKey = () => useKeyMutation<AddInput>(addApiKey);
export const useDeleteApiKey = () => useKeyMutation<DeleteInput>(deleteApiKey);
export const useUpdateApiKey = () => useKeyMutation<UpdateInput>(updateApiKey);
