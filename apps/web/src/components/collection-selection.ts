/**
 * The collection multi-select of the Usage screen (spec §4): 'All' is on by default; picking any
 * collection turns All off; unchecking All clears the list; checking All while a specific
 * selection exists resets to All; 'Clear All' empties the selection.
 */
export interface CollectionSelection {
  all: boolean;
  selected: string[];
}

export const allCollections: CollectionSelection = { all: true, selected: [] };

export function toggleAll(selection: CollectionSelection): CollectionSelection {
  return selection.all ? { all: false, selected: [] } : { all: true, selected: [] };
}

export function toggleCollection(selection: CollectionSelection, name: string): CollectionSelection {
  if (selection.all) return { all: false, selected: [name] };
  const selected = selection.selected.includes(name) ? selection.selected.filter((n) => n !== name) : [...selection.selected, name];
  return { all: false, selected };
}

export const clearAll = (): CollectionSelection => ({ all: false, selected: [] });

/** The picker's button label. */
export function selectionLabel({ all, selected }: CollectionSelection): string {
  if (all) return 'All Collections';
  if (selected.length === 0) return 'Please select a collection';
  if (selected.length === 1) return selected[0]!;
  return `${selected.length} Collections`;
}

/** `collection_names` of a history request: omitted with All, else the chosen names (an empty list when none). */
export const collectionNamesOf = ({ all, selected }: CollectionSelection): string[] | undefined => (all ? undefined : selected);
