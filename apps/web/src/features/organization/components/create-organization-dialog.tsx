import { useState } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input, Label } from '@/components/ui/input';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { failureMessage } from '@/lib/dashboard-api';
import { useAddOrganization } from '../api/add-organization';

/** 'Create New Organization' from the header's organization dropdown. */
export function CreateOrganizationDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [name, setName] = useState('');
  const add = useAddOrganization();
  const { refetchUser } = useSession();
  const { selectOrganization } = useCurrentOrganization();
  const blank = name.trim() === '';

  const close = () => {
    setName('');
    onClose();
  };
  const submit = () => {
    add.mutate(
      { name: name.trim() },
      {
        onSuccess: async (organization) => {
          await refetchUser();
          selectOrganization(organization.id);
          close();
        },
        onError: (error) => window.alert(`Error Creating Organization: ${failureMessage(error, 'Unknown error')}`),
      },
    );
  };

  return (
    <FormDialog open={open} onClose={close} busy={add.isPending} title="Create New Organization" submitLabel="Create" busyLabel="Creating..." submitDisabled={blank} onSubmit={submit}>
      <div>
        <Label htmlFor="new-organization-name">Organization Name</Label>
        <Input id="new-organization-name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
      </div>
    </FormDialog>
  );
}
