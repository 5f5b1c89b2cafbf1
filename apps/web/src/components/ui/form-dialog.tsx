import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';

interface FormDialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** The fields; Enter in any of them submits. Omit for a plain confirmation. */
  children?: ReactNode;
  submitLabel: string;
  /** What the submit button reads while the request runs ('Creating...'). */
  busyLabel: string;
  busy: boolean;
  /** Besides while busy (e.g. a blank required field). */
  submitDisabled?: boolean;
  danger?: boolean;
  onSubmit(): void;
  onClose(): void;
}

/**
 * A dialog with Cancel and one action: the action button shows its busy label and, like Cancel,
 * is disabled while the request runs (spec §5); Enter submits the form.
 */
export function FormDialog({ open, title, description, children, submitLabel, busyLabel, busy, submitDisabled = false, danger = false, onSubmit, onClose }: FormDialogProps) {
  const submit = () => {
    if (!busy && !submitDisabled) onSubmit();
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={busy}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={submit} disabled={busy || submitDisabled}>
            {busy ? busyLabel : submitLabel}
          </Button>
        </>
      }
    >
      {children ? (
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          {children}
          <button type="submit" hidden />
        </form>
      ) : null}
    </Modal>
  );
}
