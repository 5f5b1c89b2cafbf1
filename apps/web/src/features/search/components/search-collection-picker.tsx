import { Select } from '@/components/ui/input';
import type { LoadStatus } from '@/lib/current-organization';
import { searchMessages } from '../search-messages';

interface SearchCollectionPickerProps {
  status: LoadStatus;
  error: string | null;
  workingKey: string | null;
  collectionsList: string[];
  value: string | null;
  onChange(name: string | null): void;
}

/** The collection picker, or its messages: loading, no API key, no collection yet (spec §2). */
export function SearchCollectionPicker({ status, error, workingKey, collectionsList, value, onChange }: SearchCollectionPickerProps) {
  if (status === 'error') return <p className="text-sm text-red-700">{error}</p>;
  if (status !== 'success') return <p className="py-2 text-sm text-slate-500">{searchMessages.loadingCollections}</p>;
  if (!workingKey) return <p className="py-2 text-sm text-amber-700">{searchMessages.noApiKey}</p>;
  if (collectionsList.length === 0) return <p className="py-2 text-sm text-amber-700">{searchMessages.noCollections}</p>;
  return (
    <Select aria-label="Collection" className="w-64" value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
      <option value="">{searchMessages.selectCollection}</option>
      {collectionsList.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </Select>
  );
}
