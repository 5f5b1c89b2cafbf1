import { OrganizationNameDialog } from '@/components/organization-name-dialog';
import { useAddOrganization } from '@/features/organization/api/add-organization';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { failureMessage } from '@/lib/dashboard-api';

/** 'Create New Organization' from the header's organization dropdown. */
export function CreateOrganizationDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const add = useAddOrganization();
  const { refetchUser } = useSession();
  const { selectOrganization } = useCurrentOrganization();
  return (
    <OrganizationNameDialog
      open={open}
      title="Create New Organization"
      submitLabel="Create"
      busyLabel="Creating..."
      busy={add.isPending}
      onClose={onClose}
      onSubmit={(name) =>
        add.mutate(
          { name },
          {
            onSuccess: async (organization) => {
              // The new organization must be in the user's list before it can be selected.
              await refetchUser();
              selectOrganization(organization.id);
              onClose();
            },
            onError: (error) => window.alert(`Error Creating Organization: ${failureMessage(error, 'Unknown error')}`),
          },
        )
      }
    />
  );
}
