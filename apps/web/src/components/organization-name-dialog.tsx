import { useEffect, useId, useState } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input, Label } from '@/components/ui/input';

interface OrganizationNameDialogProps {
  open: boolean;
  title: string;
  /** The name the field starts with each time the dialog opens. */
  initialName?: string;
  placeholder?: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  /** A refusal shown in red under the field (the marketplace dialog); others alert instead. */
  error?: string | null;
  /** Called with the trimmed name; never while it is blank or a request runs (spec §5). */
  onSubmit(name: string): void;
  onClose(): void;
}

/** The one dialog that asks for an organization's name: create (header, marketplace) and rename. */
export function OrganizationNameDialog({ open, title, initialName = '', placeholder, submitLabel, busyLabel, busy, error, onSubmit, onClose }: OrganizationNameDialogProps) {
  const [name, setName] = useState(initialName);
  const fieldId = useId();
  useEffect(() => {
    if (open) setName(initialName);
  }, [open, initialName]);
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      busy={busy}
      title={title}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      submitDisabled={name.trim() === ''}
      onSubmit={() => onSubmit(name.trim())}
    >
      <div>
        <Label htmlFor={fieldId}>Organization Name</Label>
        <Input id={fieldId} value={name} placeholder={placeholder} onChange={(event) => setName(event.target.value)} />
        {error ? (
          <p role="alert" className="mt-2 text-sm text-red-600">
            {error}
          </p>
        ) : null}
      </div>
    </FormDialog>
  );
}
