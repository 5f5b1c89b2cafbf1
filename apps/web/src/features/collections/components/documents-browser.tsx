import type { UseQueryResult } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import type { Dispatch } from 'react';
import { cn } from '@/components/ui/cn';
import { Input } from '@/components/ui/input';
import type { DocumentSummary } from '@/features/collections/api/list-documents';
import { collectionsMessages } from '@/features/collections/collections-messages';
import type { CollectionsAction, CollectionsRouteState } from '@/features/collections/collections-state';
import { DocumentContentPane } from '@/features/collections/components/document-content-pane';
import { DocumentsTable } from '@/features/collections/components/documents-table';

interface DocumentsBrowserProps {
  workingKey: string | null;
  collectionName: string | null;
  state: CollectionsRouteState;
  dispatch: Dispatch<CollectionsAction>;
  documents: UseQueryResult<DocumentSummary[]>;
  /** The prefix the documents were listed by (the search query once it has settled). */
  prefix: string;
  now: Date;
}

/** The documents of the chosen collection: the prefix search and list, and the selected document beside them. */
export function DocumentsBrowser({ workingKey, collectionName, state, dispatch, documents, prefix, now }: DocumentsBrowserProps) {
  const selectedDocument = documents.data?.find((d) => d.path === state.selectedDocumentPath) ?? null;
  // Side by side from 1024 px, stacked below; one pane until a collection is chosen.
  return (
    <div
      className={cn(
        'grid grid-cols-1 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm',
        collectionName ? 'lg:h-[36rem] lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]' : '',
      )}
    >
      <div className={cn('flex min-h-0 flex-col', collectionName && 'max-h-[24rem] border-b border-slate-200 lg:max-h-none lg:border-r lg:border-b-0')}>
        <div className="border-b border-slate-100 p-3">
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
            <Input
              type="search"
              aria-label="Search files by prefix"
              className="pl-9"
              disabled={!collectionName}
              placeholder={collectionName ? collectionsMessages.prefixPlaceholder : collectionsMessages.prefixPlaceholderNoCollection}
              value={state.searchQuery}
              onChange={(event) => dispatch({ type: 'setSearchQuery', searchQuery: event.target.value })}
            />
          </div>
        </div>
        <div className="min-h-0 flex-1 overflow-auto">
          <DocumentsTable
            collectionName={collectionName}
            documents={collectionName ? documents : null}
            searching={prefix.trim() !== ''}
            selectedPath={state.selectedDocumentPath}
            onSelect={(path) => dispatch({ type: 'selectDocument', path })}
            now={now}
          />
        </div>
      </div>
      {collectionName ? (
        <DocumentContentPane
          workingKey={workingKey}
          collectionName={collectionName}
          selectedPath={state.selectedDocumentPath}
          document={selectedDocument}
          showMetadata={state.showMetadata}
          onShowMetadataChange={(showMetadata) => dispatch({ type: 'setShowMetadata', showMetadata })}
        />
      ) : null}
    </div>
  );
}
