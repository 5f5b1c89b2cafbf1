import type { UseQueryResult } from '@tanstack/react-query';
import { cn } from '@/components/ui/cn';
import { Skeleton } from '@/components/ui/skeleton';
import { providerErrorMessage } from '@/lib/provider-errors';
import type { DocumentSummary } from '../api/list-documents';
import { collectionsMessages } from '../collections-messages';
import { toIndexStatus } from '../document-status';
import { formatFileSize, formatUploadTime } from '../formatters';
import { DocumentStatusDot } from './document-status-dot';

interface DocumentsTableProps {
  collectionName: string | null;
  documents: UseQueryResult<DocumentSummary[]> | null;
  /** A file-prefix search is typed: its failure reads 'Document Search failed...'. */
  searching: boolean;
  selectedPath: string | null;
  onSelect(path: string): void;
  now: Date;
}

/** The left list: Name, Size, Upload Date of every document matching the prefix. */
export function DocumentsTable({ collectionName, documents, selectedPath, onSelect, now, searching }: DocumentsTableProps) {
  if (!collectionName || !documents) return <PaneMessage>{collectionsMessages.selectCollection}</PaneMessage>;
  // One message and no rows: a list that failed to load is not shown from an older answer.
  if (documents.isError) {
    return <PaneMessage tone="error">{searching ? collectionsMessages.documentSearchFailed : collectionsMessages.documentsFailed(providerErrorMessage(documents.error))}</PaneMessage>;
  }
  if (!documents.data) {
    return (
      <div role="status" aria-label="Loading documents" className="flex flex-col gap-2 p-3">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-6" />
        ))}
      </div>
    );
  }
  return (
    <div className={cn('overflow-auto', documents.isPlaceholderData && 'opacity-70')} aria-busy={documents.isFetching}>
      <table className="w-full table-fixed text-sm" aria-label="Documents">
        <thead className="sticky top-0 bg-slate-50 text-left text-xs font-medium text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="w-20 px-3 py-2 text-right">
              Size
            </th>
            <th scope="col" className="w-28 px-3 py-2">
              Upload Date
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {documents.data.map((document) => {
            const selected = document.path === selectedPath;
            return (
              <tr
                key={document.path}
                aria-selected={selected}
                data-path={document.path}
                onClick={() => onSelect(document.path)}
                className={cn('cursor-pointer', selected ? 'bg-blue-50 shadow-[inset_3px_0_0_var(--color-blue-500)]' : 'hover:bg-slate-50')}
              >
                <td className="px-3 py-2">
                  <button
                    type="button"
                    onClick={(event) => {
                      event.stopPropagation();
                      onSelect(document.path);
                    }}
                    aria-current={selected ? 'true' : undefined}
                    className="flex w-full min-w-0 items-center gap-2 rounded text-left focus-visible:outline-2 focus-visible:outline-slate-400"
                  >
                    <DocumentStatusDot status={toIndexStatus(document.indexStatus)} />
                    <span className="truncate font-medium text-slate-800" title={document.path}>
                      {document.path}
                    </span>
                  </button>
                </td>
                <td className="px-3 py-2 text-right tabular-nums text-slate-600">{formatFileSize(document.fileSize)}</td>
                <td className="px-3 py-2 text-slate-600">
                  <time dateTime={document.createdAt} title={new Date(document.createdAt).toLocaleString()}>
                    {formatUploadTime(document.createdAt, now)}
                  </time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {documents.data.length === 0 ? <PaneMessage>{collectionsMessages.noFiles}</PaneMessage> : null}
    </div>
  );
}

export function PaneMessage({ children, tone = 'muted' }: { children: React.ReactNode; tone?: 'muted' | 'error' }) {
  return (
    <p role={tone === 'error' ? 'alert' : undefined} className={cn('p-6 text-center text-sm', tone === 'error' ? 'text-red-700' : 'text-slate-500')}>
      {children}
    </p>
  );
}
