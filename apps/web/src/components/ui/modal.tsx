import { lazy, Suspense, useState } from 'react';
import type { ModalProps } from '@/components/ui/modal-dialog';
import { captureOpener } from '@/lib/focus-return';

const ModalDialog = lazy(() => import('@/components/ui/modal-dialog').then((m) => ({ default: m.ModalDialog })));

/**
 * Every dialog of the dashboard (see modal-dialog.tsx). The dialog code loads the first time a
 * dialog opens, so screens full of closed dialogs cost nothing on the first load.
 */
export function Modal(props: ModalProps) {
  if (!props.open) return null;
  return <OpenModal {...props} />;
}

function OpenModal(props: ModalProps) {
  // Read while rendering the first time: the control that opened the dialog still has focus.
  const [opener] = useState(captureOpener);
  return (
    <Suspense fallback={null}>
      <ModalDialog opener={opener} {...props} />
    </Suspense>
  );
}
