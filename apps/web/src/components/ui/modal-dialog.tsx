import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';
import { returnFocus } from '@/lib/focus-return';

export interface ModalProps {
  open: boolean;
  onClose(): void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** While a request runs the modal stays open: outside clicks and Escape are ignored. */
  busy?: boolean;
  className?: string;
  /** The control that opened the dialog (lib/focus-return.ts); focus goes back to it on close. */
  opener?: HTMLElement | null;
  /** Where focus goes when the opener is gone (a deleted row's button). */
  returnFocusTo?(): HTMLElement | null;
}

/**
 * Every dialog of the dashboard. Radix Dialog gives Escape-to-close, the Tab trap and focus
 * return (to the opener that stays on the page, lib/focus-return.ts), and focuses the first focusable element on open (the first field, else Cancel); an outside click closes unless a request is in progress (spec §2).
 */
export function ModalDialog({ open, onClose, title, description, children, footer, busy = false, className, opener = null, returnFocusTo }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus(opener, returnFocusTo);
          }}
          className={cn('fixed top-1/2 left-1/2 z-50 outline-none w-[min(480px,92vw)] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none', className)}
        >
          <Dialog.Title className="pr-8 text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          {description ? <Dialog.Description className="mt-2 text-sm text-slate-600">{description}</Dialog.Description> : <Dialog.Description className="sr-only">{title}</Dialog.Description>}
          {children ? <div className="mt-4">{children}</div> : null}
          {footer ? <div className="mt-6 flex justify-end gap-2">{footer}</div> : null}
          {/* Last in the focus order: a dialog opens on its first field, or on Cancel (the safe
              action) for a confirmation, never on the close icon. */}
          <Dialog.Close asChild>
            <button
              aria-label="Close"
              disabled={busy}
              className="absolute top-5 right-5 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-400 disabled:opacity-40"
            >
              <X className="size-4" />
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
