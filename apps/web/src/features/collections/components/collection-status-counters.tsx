import type { UseQueryResult } from '@tanstack/react-query';
import type { CollectionStatus } from '@/features/collections/api/get-collection-status';
import { collectionsMessages } from '@/features/collections/collections-messages';

const COUNTERS: { label: string; value(status: CollectionStatus): number; tone: string }[] = [
  { label: 'Docs', value: (s) => s.numDocuments, tone: 'text-slate-900' },
  { label: 'Parsing', value: (s) => s.numParsingDocuments, tone: 'text-yellow-700' },
  { label: 'Indexing', value: (s) => s.numIndexingDocuments, tone: 'text-blue-700' },
  { label: 'Indexed', value: (s) => s.numIndexedDocuments, tone: 'text-green-700' },
  { label: 'Failed', value: (s) => s.numFailedDocuments, tone: 'text-red-700' },
];

/** Docs, Parsing, Indexing, Indexed and Failed of the chosen collection ('-' until known). */
export function CollectionStatusCounters({ status }: { status: UseQueryResult<CollectionStatus> | null }) {
  const data = status?.data;
  return (
    <div className="flex flex-col gap-2">
      <dl className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label="Collection status">
        {COUNTERS.map(({ label, value, tone }) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white px-3 py-2">
            <dt className="text-xs font-medium text-slate-500">{label}</dt>
            {/* A zero is no news: only a count above zero takes its colour (a red 'Failed 0' alarms for nothing). */}
            <dd className={`text-lg font-semibold tabular-nums ${data && value(data) > 0 ? tone : 'text-slate-500'}`} data-counter={label}>
              {data ? value(data) : '-'}
            </dd>
          </div>
        ))}
      </dl>
      {status?.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {collectionsMessages.statusFailed}
        </p>
      ) : null}
    </div>
  );
}
