import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { providerErrorMessage } from '@/lib/provider-errors';
import { useAddCollection } from '@/features/collections/api/add-collection';

/** 'Create Collection': a trimmed, non-empty name; the server's refusal shows under the field. */
export function CreateCollectionDialog({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(name: string): void }) {
  const [name, setName] = useState('');
  const addCollection = useAddCollection();
  const trimmed = name.trim();

  const close = () => {
    setName('');
    addCollection.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || addCollection.isPending) return;
    addCollection.mutate(trimmed, {
      onSuccess: () => {
        onCreated(trimmed);
        close();
      },
    });
  };

  return (
    <Modal open={open} onClose={close} title="Create Collection" busy={addCollection.isPending}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <div>
          <Label htmlFor="collection-name">Collection Name</Label>
          <Input id="collection-name" autoFocus value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. contracts" />
          {addCollection.isError ? (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {providerErrorMessage(addCollection.error)}
            </p>
          ) : null}
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={addCollection.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={!trimmed || addCollection.isPending}>
            {addCollection.isPending ? 'Creating...' : 'Create'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
