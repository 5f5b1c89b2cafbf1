import { ApiKey } from '@sift/contracts';
import { useMutation } from '@tanstack/react-query';
import { useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

/** The name of the key the Collections screen adds for its own writes. */
export const WRITE_KEY_NAME = 'Dashboard uploads';

/**
 * Adds a key with All Permissions (an owner's one click out of a Read Only dead end), then
 * reloads the organization so that it becomes the write key.
 */
export function useAddWriteKey() {
  const { organizationId, reloadOrganization } = useCurrentOrganization();
  return useMutation({
    mutationFn: () =>
      postDashboard('/api/organizations/api-keys/add-api-key', { organization_id: organizationId, name: WRITE_KEY_NAME, permission: 'all' }, ApiKey.omit({ created_by: true })),
    onSuccess: () => reloadOrganization(),
  });
}
