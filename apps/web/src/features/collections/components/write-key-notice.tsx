import { KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { failureMessage } from '@/lib/dashboard-api';
import { useAddWriteKey } from '@/features/collections/api/add-write-key';

export const WRITE_KEY_NOTICE_ID = 'write-key-notice';

/**
 * Why New Collection and uploads are off when the organization has no key with All Permissions
 * (they would answer 403), and for an owner the button that adds one.
 */
export function WriteKeyNotice({ hasKey, isOwner }: { hasKey: boolean; isOwner: boolean }) {
  const add = useAddWriteKey();
  const why = hasKey
    ? "This organization's API keys are all Read Only, so the dashboard cannot add collections or files with them."
    : 'This organization has no API key, so the dashboard cannot add collections or files.';
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <KeyRound aria-hidden className="size-4 shrink-0" />
      <p id={WRITE_KEY_NOTICE_ID} className="min-w-0 flex-1">
        {why} {isOwner ? null : 'Ask an owner of the organization for a key with All Permissions.'}
      </p>
      {isOwner ? (
        <Button variant="secondary" disabled={add.isPending} onClick={() => add.mutate()}>
          {add.isPending ? 'Adding...' : 'Add a key with All Permissions'}
        </Button>
      ) : null}
      {add.isError ? (
        <p role="alert" className="w-full text-red-700">
          Failed to create API key: {failureMessage(add.error, 'Unknown error')}
        </p>
      ) : null}
    </div>
  );
}
