import type { ApiKey } from '@sift/contracts';
import { Check, Pencil, Trash2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { IconButton } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { formatUtcLongDate } from '@/lib/dates';
import { failureMessage } from '@/lib/dashboard-api';
import { useUpdateApiKey } from '@/features/api-keys/api/update-api-key';
import { type KeyPermission, PERMISSION_LABELS, PERMISSION_OPTIONS } from '@/features/api-keys/key-permissions';
import { ApiKeyValue } from '@/features/api-keys/components/api-key-value';

/**
 * A cell of the table from 1024 px; below, the rows reflow into cards where each cell is a line
 * with its column's name before the value (the header row is then only read by screen readers).
 */
const cell =
  'px-4 py-3 max-lg:grid max-lg:grid-cols-[6.5rem_minmax(0,1fr)] max-lg:items-center max-lg:gap-3 max-lg:px-0 max-lg:py-1 max-lg:before:text-xs max-lg:before:font-medium max-lg:before:text-slate-500 max-lg:before:content-[attr(data-label)]';

type UpdateApiKey = ReturnType<typeof useUpdateApiKey>;
type Rename = ReturnType<typeof useRename>;

export function ApiKeyRow({ apiKey, isOwner, onDelete }: { apiKey: ApiKey; isOwner: boolean; onDelete(): void }) {
  const update = useUpdateApiKey();
  const rename = useRename(apiKey, update);
  const { draftName, setDraftName, saveName } = rename;

  const changePermission = (permission: KeyPermission) =>
    update.mutate(
      { api_key_id: apiKey.id, permission },
      { onError: (error) => window.alert(`Failed to update API key: ${failureMessage(error, 'Unknown error')}`) },
    );

  return (
    <tr className="border-t border-slate-100 align-middle max-lg:block max-lg:px-4 max-lg:py-3">
      <td data-label="Name" className={cn(cell, 'font-medium text-slate-900')}>
        {draftName === null ? (
          <span className="block truncate" title={apiKey.name}>
            {apiKey.name}
          </span>
        ) : (
          // The whole cell: save and cancel sit in the Actions column while renaming; the row
          // still names the key it edits.
          <>
            <span className="sr-only">{apiKey.name}</span>
            <Input
              aria-label="API key name"
              value={draftName}
              autoFocus
              className="h-8 py-1"
              onChange={(event) => setDraftName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') saveName();
                if (event.key === 'Escape') setDraftName(null);
              }}
            />
          </>
        )}
      </td>
      <td data-label="API Key" className={cell}>
        <ApiKeyValue value={apiKey.api_key} />
      </td>
      <td data-label="Created At" className={cn(cell, 'text-slate-600')}>{formatUtcLongDate(apiKey.created_at)}</td>
      <td data-label="Created By" className={cn(cell, 'text-slate-600')}>
        <span className="block truncate" title={apiKey.created_by ?? undefined}>
          {apiKey.created_by ?? '-'}
        </span>
      </td>
      <td data-label="Permission" className={cell}>
        {isOwner ? (
          <Select
            aria-label={`Permission of ${apiKey.name}`}
            value={apiKey.permission}
            disabled={update.isPending}
            className="w-full"
            onValueChange={changePermission}
            options={PERMISSION_OPTIONS}
          />
        ) : (
          <span className="text-slate-700">{PERMISSION_LABELS[apiKey.permission]}</span>
        )}
      </td>
      <td data-label="Actions" className={isOwner ? cell : 'px-4 py-3 max-lg:hidden'}>
        {isOwner ? <OwnerActions name={apiKey.name} rename={rename} pending={update.isPending} onDelete={onDelete} /> : null}
      </td>
    </tr>
  );
}

/** A row's rename: the name being typed (null when not renaming) and its save. */
function useRename(apiKey: ApiKey, update: UpdateApiKey) {
  const [draftName, setDraftName] = useState<string | null>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);

  // Saving or cancelling a rename gives focus back to the Rename button that started it.
  useEffect(() => {
    if (draftName === null && wasRenaming.current) renameButton.current?.focus();
    wasRenaming.current = draftName !== null;
  }, [draftName]);

  const saveName = () => {
    if (draftName === null || draftName.trim() === '' || update.isPending) return;
    update.mutate(
      { api_key_id: apiKey.id, name: draftName.trim() },
      {
        onSuccess: () => setDraftName(null),
        onError: (error) => window.alert(`Failed to update API key name: ${failureMessage(error, 'Unknown error')}`),
      },
    );
  };
  return { draftName, setDraftName, saveName, renameButton };
}

/** An owner's buttons: Rename and Delete, or Save and Cancel while the name is edited. */
function OwnerActions({ name, rename, pending, onDelete }: { name: string; rename: Rename; pending: boolean; onDelete(): void }) {
  const { draftName, setDraftName, saveName, renameButton } = rename;
  if (draftName !== null) {
    return (
      <div className="flex items-center gap-1">
        <IconButton label="Save name" onClick={saveName} disabled={draftName.trim() === '' || pending}>
          <Check className="size-4" />
        </IconButton>
        <IconButton label="Cancel rename" onClick={() => setDraftName(null)} disabled={pending}>
          <X className="size-4" />
        </IconButton>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-1">
      <IconButton ref={renameButton} label={`Rename ${name}`} onClick={() => setDraftName(name)}>
        <Pencil className="size-4" />
      </IconButton>
      <IconButton label={`Delete ${name}`} onClick={onDelete} className="hover:text-red-600">
        <Trash2 className="size-4" />
      </IconButton>
    </div>
  );
}
