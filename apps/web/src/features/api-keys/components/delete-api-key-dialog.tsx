import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { failureMessage } from '@/lib/dashboard-api';
import { useDeleteApiKey } from '@/features/api-keys/api/delete-api-key';

export function DeleteApiKeyDialog({ apiKey, onClose }: { apiKey: { id: string; name: string } | null; onClose(): void }) {
  const remove = useDeleteApiKey();
  const confirm = () => {
    if (!apiKey) return;
    remove.mutate(
      { api_key_id: apiKey.id },
      {
        onSuccess: onClose,
        onError: (error) => window.alert(`Failed to delete API key: ${failureMessage(error, 'Unknown error')}`),
      },
    );
  };
  return (
    <Modal
      open={apiKey !== null}
      onClose={onClose}
      busy={remove.isPending}
      title="Delete API Key"
      description={`Are you sure you want to delete the API key "${apiKey?.name ?? ''}"? This action cannot be undone and will immediately revoke access for any applications using this key.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </>
      }
    />
  );
}
