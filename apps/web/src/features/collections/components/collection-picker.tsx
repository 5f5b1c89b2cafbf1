import { Select } from '@/components/ui/input';
import { useCurrentOrganization } from '@/lib/current-organization';
import { collectionsMessages } from '../collections-messages';

/** 'Select a Collection' over the organization's collections, or why there is nothing to pick. */
export function CollectionPicker({ value, onChange }: { value: string | null; onChange(name: string | null): void }) {
  const { status, error, workingKey, collectionsList } = useCurrentOrganization();
  if (status === 'error') return <p className="text-sm text-red-700">{error}</p>;
  if (status !== 'success') return <p className="text-sm text-slate-500">{collectionsMessages.loadingCollections}</p>;
  if (!workingKey) return <p className="text-sm text-amber-700">{collectionsMessages.noApiKey}</p>;
  return (
    <Select aria-label="Collection" className="w-72" value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
      <option value="">{collectionsMessages.pickerPlaceholder}</option>
      {collectionsList.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </Select>
  );
}
