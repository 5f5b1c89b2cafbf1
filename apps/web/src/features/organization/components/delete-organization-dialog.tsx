import { useState } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input, Label } from '@/components/ui/input';
import { failureMessage } from '@/lib/dashboard-api';
import { organizationAge } from '@/lib/dates';
import { navigate } from '@/lib/router';
import { useDeleteOrganization } from '@/features/organization/api/delete-organization';
import { confirmsOrganizationId, displayOrganizationId } from '@/features/organization/organization-id';

const ID_MISMATCH = 'Organization ID does not match. Please enter the correct ID.';

export function DeleteOrganizationDialog({
  open,
  organization,
  onClose,
}: {
  open: boolean;
  organization: { id: string; name: string; created_at: string };
  onClose(): void;
}) {
  const [entered, setEntered] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteOrganization();

  const close = () => {
    setEntered('');
    setError(null);
    onClose();
  };
  const submit = () => {
    if (!confirmsOrganizationId(entered, organization.id)) {
      setError(ID_MISMATCH);
      return;
    }
    setError(null);
    remove.mutate(
      {},
      {
        onSuccess: () => {
          close();
          navigate('/api-keys');
        },
        onError: (failure) => setError(`Failed to delete organization: ${failureMessage(failure, 'Unknown error')}`),
      },
    );
  };
  return (
    <FormDialog
      open={open}
      onClose={close}
      busy={remove.isPending}
      danger
      title="Delete Organization"
      description={
        <>
          This permanently deletes <strong>{organization.name}</strong>, created {organizationAge(organization.created_at)}, with its API keys,
          collections and documents. Type the organization ID <code className="font-mono">{displayOrganizationId(organization.id)}</code> to
          confirm.
        </>
      }
      submitLabel="Delete Organization"
      busyLabel="Deleting..."
      submitDisabled={entered.trim() === ''}
      onSubmit={submit}
    >
      <div>
        <Label htmlFor="delete-organization-id">Organization ID</Label>
        <Input id="delete-organization-id" value={entered} onChange={(event) => setEntered(event.target.value)} autoFocus placeholder={displayOrganizationId(organization.id)} />
        {error ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </FormDialog>
  );
}
