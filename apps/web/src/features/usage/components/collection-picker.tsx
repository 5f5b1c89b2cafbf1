import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { USAGE_COLLECTION_DROPDOWN_MAX_HEIGHT, USAGE_COLLECTION_DROPDOWN_MIN_WIDTH } from '@/lib/constants';
import { type CollectionSelection, clearAll, selectionLabel, toggleAll, toggleCollection } from '../collection-selection';

/** The collection multi-select of the usage history (spec §2, §4); an outside click closes it. */
export function CollectionPicker({
  collections,
  selection,
  onChange,
}: {
  collections: string[];
  selection: CollectionSelection;
  onChange(selection: CollectionSelection): void;
}) {
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
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className="inline-flex min-w-48 items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 hover:bg-slate-50"
      >
        <span className="truncate">{selectionLabel(selection)}</span>
        <ChevronDown aria-hidden className="size-4 text-slate-500" />
      </button>
      {open ? (
        <div
          id={listId}
          role="group"
          aria-label="Collections"
          style={{ maxHeight: USAGE_COLLECTION_DROPDOWN_MAX_HEIGHT, minWidth: USAGE_COLLECTION_DROPDOWN_MIN_WIDTH }}
          className="absolute left-0 z-30 mt-1 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
        >
          {collections.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-500">No collections available</p>
          ) : (
            <>
              <div className="flex items-center justify-between gap-2 px-1">
                <Check label="All Collections" checked={selection.all} onChange={() => onChange(toggleAll(selection))} />
                <button type="button" onClick={() => onChange(clearAll())} className="rounded px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100">
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
