import { lazy, Suspense } from 'react';
import type { ModalProps } from '@/components/ui/modal-dialog';

const ModalDialog = lazy(() => import('@/components/ui/modal-dialog').then((m) => ({ default: m.ModalDialog })));

/**
 * Every dialog of the dashboard (see modal-dialog.tsx). The dialog code loads the first time a
 * dialog opens, so screens full of closed dialogs cost nothing on the first load.
 */
export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
