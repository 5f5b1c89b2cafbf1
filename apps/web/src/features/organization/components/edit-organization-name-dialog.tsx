import { useEffect, useState } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input, Label } from '@/components/ui/input';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { failureMessage } from '@/lib/dashboard-api';
import { useUpdateOrganization } from '../api/organization-mutations';

export function EditOrganizationNameDialog({ open, currentName, onClose }: { open: boolean; currentName: string; onClose(): void }) {
  const [name, setName] = useState(currentName);
  const update = useUpdateOrganization();
  const { reloadOrganization } = useCurrentOrganization();
  const { refetchUser } = useSession();
  useEffect(() => {
    if (open) setName(currentName);
  }, [open, currentName]);
  const blank = name.trim() === '';

  const submit = () => {
    update.mutate(
      { name: name.trim() },
      {
        onSuccess: async () => {
          await Promise.all([reloadOrganization(), refetchUser()]);
          onClose();
        },
        onError: (error) => window.alert(`Failed to update organization name: ${failureMessage(error, 'Failed to update organization name')}`),
      },
    );
  };
  return (
    <FormDialog open={open} onClose={onClose} busy={update.isPending} title="Edit Organization Name" submitLabel="Save" busyLabel="Saving..." submitDisabled={blank} onSubmit={submit}>
      <div>
        <Label htmlFor="organization-name">Organization Name</Label>
        <Input id="organization-name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
      </div>
    </FormDialog>
  );
}
