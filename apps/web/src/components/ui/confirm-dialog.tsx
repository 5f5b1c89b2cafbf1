import type { ReactNode } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  danger?: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** A question with Cancel and one action. */
export function ConfirmDialog({ confirmLabel, onConfirm, ...props }: ConfirmDialogProps) {
  return <FormDialog submitLabel={confirmLabel} onSubmit={onConfirm} {...props} />;
}
