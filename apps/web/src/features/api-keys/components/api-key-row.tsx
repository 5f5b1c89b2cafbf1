import type { ApiKey } from '@sift/contracts';
import { Check, Copy, Eye, EyeOff, Pencil, Trash2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { IconButton } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { COPY_CONFIRMATION_MS } from '@/lib/constants';
import { formatUtcLongDate } from '@/lib/dates';
import { failureMessage } from '@/lib/dashboard-api';
import { useUpdateApiKey } from '@/features/api-keys/api/update-api-key';
import { type KeyPermission, PERMISSION_LABELS, PERMISSION_OPTIONS } from '@/features/api-keys/key-permissions';
import { maskApiKey } from '@/features/api-keys/mask-api-key';

/**
 * A cell of the table from 1024 px; below, the rows reflow into cards where each cell is a line
 * with its column's name before the value (the header row is then only read by screen readers).
 */
const cell =
  'px-4 py-3 max-lg:grid max-lg:grid-cols-[6.5rem_minmax(0,1fr)] max-lg:items-center max-lg:gap-3 max-lg:px-0 max-lg:py-1 max-lg:before:text-xs max-lg:before:font-medium max-lg:before:text-slate-500 max-lg:before:content-[attr(data-label)]';

export function ApiKeyRow({ apiKey, isOwner, onDelete }: { apiKey: ApiKey; isOwner: boolean; onDelete(): void }) {
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState(false);
  const [draftName, setDraftName] = useState<string | null>(null);
  const update = useUpdateApiKey();
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);

  // Saving or cancelling a rename gives focus back to the Rename button that started it.
  useEffect(() => {
    if (draftName === null && wasRenaming.current) renameButton.current?.focus();
    wasRenaming.current = draftName !== null;
  }, [draftName]);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey.api_key);
      setCopied(true);
    } catch (error) {
      console.error('copy failed', error);
    }
  };
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
        <div className="relative flex min-w-0 items-center gap-1">
          {shown ? (
            <code className="min-w-0 rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all text-slate-800">{apiKey.api_key}</code>
          ) : (
            <MaskedKey masked={maskApiKey(apiKey.api_key)} />
          )}
          <IconButton label={shown ? 'Hide API key' : 'Show API key'} onClick={() => setShown(!shown)}>
            {shown ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
          </IconButton>
          <IconButton label="Copy API key" onClick={copy}>
            {copied ? <Check className="size-4 text-green-600" /> : <Copy className="size-4" />}
          </IconButton>
          {/* Over the key, not beside it: the column keeps its width. */}
          {copied ? (
            <span role="status" className="absolute top-1/2 left-0 -translate-y-1/2 rounded bg-green-50 px-2 py-1 text-xs font-medium text-green-700 ring-1 ring-green-200">
              Copied!
            </span>
          ) : null}
        </div>
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
        {isOwner && draftName !== null ? (
          <div className="flex items-center gap-1">
            <IconButton label="Save name" onClick={saveName} disabled={draftName.trim() === '' || update.isPending}>
              <Check className="size-4" />
            </IconButton>
            <IconButton label="Cancel rename" onClick={() => setDraftName(null)} disabled={update.isPending}>
              <X className="size-4" />
            </IconButton>
          </div>
        ) : isOwner ? (
          <div className="flex items-center gap-1">
            <IconButton ref={renameButton} label={`Rename ${apiKey.name}`} onClick={() => setDraftName(apiKey.name)}>
              <Pencil className="size-4" />
            </IconButton>
            <IconButton label={`Delete ${apiKey.name}`} onClick={onDelete} className="hover:text-red-600">
              <Trash2 className="size-4" />
            </IconButton>
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/** The masked key on one line: its first and last 4 always show, the stars between give way to the column. */
function MaskedKey({ masked }: { masked: string }) {
  const [head, middle, tail] = masked.length > 8 ? [masked.slice(0, 4), masked.slice(4, -4), masked.slice(-4)] : ['', masked, ''];
  return (
    <code className="flex min-w-0 rounded bg-slate-100 px-2 py-1 font-mono text-xs whitespace-nowrap text-slate-800">
      <span>{head}</span>
      <span className="min-w-0 overflow-hidden">{middle}</span>
      <span>{tail}</span>
    </code>
  );
}
