import { useState } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input, Label } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { failureMessage } from '@/lib/dashboard-api';
import { type KeyPermission, useAddApiKey } from '../api/api-key-mutations';

const PERMISSION_OPTIONS = [
  { value: 'read_only', label: 'Read Only' },
  { value: 'all', label: 'All Permissions' },
] as const satisfies readonly { value: KeyPermission; label: string }[];

export function AddApiKeyDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [name, setName] = useState('');
  const [permission, setPermission] = useState<KeyPermission>('read_only');
  const add = useAddApiKey();
  const blank = name.trim() === '';

  const close = () => {
    setName('');
    setPermission('read_only');
    onClose();
  };
  const submit = () => {
    add.mutate(
      { name: name.trim(), permission },
      {
        onSuccess: close,
        onError: (error) => window.alert(`Failed to create API key: ${failureMessage(error, 'Unknown error')}`),
      },
    );
  };

  return (
    <FormDialog open={open} onClose={close} busy={add.isPending} title="Add API Key" submitLabel="Create" busyLabel="Creating..." submitDisabled={blank} onSubmit={submit}>
      <div>
        <Label htmlFor="api-key-name">API Key Name</Label>
        <Input id="api-key-name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
      </div>
      <div>
        <Label htmlFor="api-key-permission">Permission Level</Label>
        <Select id="api-key-permission" value={permission} onValueChange={setPermission} options={PERMISSION_OPTIONS} />
      </div>
    </FormDialog>
  );
}
