import { OrganizationNameDialog } from '@/components/organization-name-dialog';
import { useUpdateOrganization } from '@/features/organization/api/update-organization';
import { failureMessage } from '@/lib/dashboard-api';

export function EditOrganizationNameDialog({ open, currentName, onClose }: { open: boolean; currentName: string; onClose(): void }) {
  const update = useUpdateOrganization();
  return (
    <OrganizationNameDialog
      open={open}
      title="Edit Organization Name"
      initialName={currentName}
      submitLabel="Save"
      busyLabel="Saving..."
      busy={update.isPending}
      onClose={onClose}
      onSubmit={(name) =>
        update.mutate(
          { name },
          {
            onSuccess: onClose,
            onError: (error) => window.alert(`Failed to update organization name: ${failureMessage(error, 'Failed to update organization name')}`),
          },
        )
      }
    />
  );
}
