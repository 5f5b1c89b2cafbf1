import { cn } from '@/components/ui/cn';
import { type IndexStatus, indexStatusLabel } from '@/features/collections/document-status';

const dotClass: Record<IndexStatus, string> = {
  parsing: 'bg-yellow-400',
  indexing: 'bg-blue-500 animate-pulse',
  indexed: 'bg-green-500',
  parsing_failed: 'bg-red-500',
  indexing_failed: 'bg-red-500',
};

/** The index status of a document as a dot (spec §2): parsing yellow, indexing blue pulsing, indexed green, failed red. */
export function DocumentStatusDot({ status, className }: { status: IndexStatus; className?: string }) {
  return (
    <span
      role="img"
      aria-label={indexStatusLabel[status]}
      title={indexStatusLabel[status]}
      data-status={status}
      className={cn('inline-block size-2.5 shrink-0 rounded-full', dotClass[status], className)}
    />
  );
}
