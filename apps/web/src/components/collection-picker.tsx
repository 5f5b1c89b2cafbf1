import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { cn } from '@/components/ui/cn';
import { fieldTrigger, Select } from '@/components/ui/select';
import { USAGE_COLLECTION_DROPDOWN_MAX_HEIGHT, USAGE_COLLECTION_DROPDOWN_MIN_WIDTH } from '@/lib/constants';
import { useCollectionsList } from '@/lib/collections-list';
import { useCurrentOrganization } from '@/lib/current-organization';
import { type CollectionSelection, clearAll, selectionLabel, toggleAll, toggleCollection } from '@/components/collection-selection';

/** The collection pickers' words (spec §2 "Search" picker messages). */
export const collectionPickerMessages = {
  loading: 'Loading collections list...',
  noApiKey: 'No API Key is available. Please create an API Key!',
  noCollections: 'You have to upload a collection first! Check out the documentation to learn how.',
  noneAvailable: 'No collections available',
} as const;

/** Collection dropdowns are at most 300 px high (and half the viewport) and at least 250 px wide (spec §9). */
const LIST_MAX_HEIGHT = `min(${USAGE_COLLECTION_DROPDOWN_MAX_HEIGHT}px, 50vh)`;

/**
 * The one collection picker of the dashboard (Search, Collections, Usage): the organization's
 * collections, or why there is nothing to pick (loading, no API key, no collection yet).
 * `value`/`onChange` choose one collection (Radix Select); `selection`/`onSelectionChange` choose
 * several with 'All Collections' and 'Clear All' (Usage, spec §4).
 */
export function CollectionPicker(props: { placeholder: string; value: string | null; onChange(name: string): void; emptyText?: string } | { selection: CollectionSelection; onSelectionChange(selection: CollectionSelection): void }) {
  const { error, workingKey } = useCurrentOrganization();
  const { status, collectionsList } = useCollectionsList();
  if ('selection' in props) return <CollectionChecklist collections={collectionsList} selection={props.selection} onChange={props.onSelectionChange} />;
  if (status === 'error') return <PickerNote tone="error">{error}</PickerNote>;
  if (status !== 'success') return <PickerNote>{collectionPickerMessages.loading}</PickerNote>;
  if (!workingKey) return <PickerNote tone="warning">{collectionPickerMessages.noApiKey}</PickerNote>;
  if (collectionsList.length === 0) return <PickerNote tone="warning">{props.emptyText ?? collectionPickerMessages.noCollections}</PickerNote>;
  return (
    <Select
      aria-label="Collection"
      className="w-full sm:w-72"
      placeholder={props.placeholder}
      value={props.value}
      onValueChange={props.onChange}
      options={collectionsList.map((name) => ({ value: name, label: name }))}
      maxHeight={LIST_MAX_HEIGHT}
      minWidth={USAGE_COLLECTION_DROPDOWN_MIN_WIDTH}
    />
  );
}

function PickerNote({ tone = 'muted', children }: { tone?: 'muted' | 'warning' | 'error'; children: React.ReactNode }) {
  const color = { muted: 'text-slate-500', warning: 'text-amber-700', error: 'text-red-700' }[tone];
  return <p className={cn('flex min-h-9 items-center text-sm', color)}>{children}</p>;
}

/** Several collections, with 'All Collections' and 'Clear All'; an outside click or Escape closes it. */
function CollectionChecklist({ collections, selection, onChange }: { collections: string[]; selection: CollectionSelection; onChange(selection: CollectionSelection): void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button type="button" aria-haspopup="true" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((value) => !value)} className={cn(fieldTrigger, 'w-56')}>
        <span className="truncate">{selectionLabel(selection)}</span>
        <ChevronDown aria-hidden className="size-4 shrink-0 text-slate-500" />
      </button>
      {open ? (
        <div
          id={listId}
          role="group"
          aria-label="Collections"
          style={{ maxHeight: LIST_MAX_HEIGHT, minWidth: USAGE_COLLECTION_DROPDOWN_MIN_WIDTH }}
          className="absolute left-0 z-30 mt-1 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
        >
          {collections.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-500">{collectionPickerMessages.noneAvailable}</p>
          ) : (
            <>
              <div className="flex items-center justify-between gap-2 px-1">
                <Check label="All Collections" checked={selection.all} onChange={() => onChange(toggleAll(selection))} />
                <button type="button" onClick={() => onChange(clearAll())} className="rounded px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-slate-400">
                  Clear All
                </button>
              </div>
              <div className="my-1 h-px bg-slate-100" />
              {collections.map((name) => (
                <div key={name} className="px-1">
                  <Check label={name} checked={!selection.all && selection.selected.includes(name)} onChange={() => onChange(toggleCollection(selection, name))} />
                </div>
              ))}
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange(): void }) {
  return (
    <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-50">
      <input type="checkbox" checked={checked} onChange={onChange} className="size-4 accent-slate-900" />
      <span className="truncate">{label}</span>
    </label>
  );
}
