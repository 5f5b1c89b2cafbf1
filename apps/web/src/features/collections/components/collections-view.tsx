import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FolderPlus, Search } from 'lucide-react';
import { useEffect, useReducer, useState } from 'react';
import { CollectionPicker } from '@/components/collection-picker';
import { NoOrganization } from '@/components/no-organization';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { Input } from '@/components/ui/input';
import { Page } from '@/components/ui/page';
import { useCollectionsList } from '@/lib/collections-list';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useRouteActive } from '@/lib/use-route-visited';
import { collectionStatusKey, collectionStatusQueryOptions } from '@/features/collections/api/get-collection-status';
import { documentsKey, documentsQueryOptions } from '@/features/collections/api/list-documents';
import { collectionsMessages } from '@/features/collections/collections-messages';
import { collectionsReducer, initialCollectionsState } from '@/features/collections/collections-state';
import { useDebouncedValue } from '@/features/collections/use-debounced-value';
import { useFileUploads } from '@/features/collections/use-file-uploads';
import { useNow } from '@/features/collections/use-now';
import { CollectionStatusCounters } from '@/features/collections/components/collection-status-counters';
import { CreateCollectionDialog } from '@/features/collections/components/create-collection-dialog';
import { DocumentContentPane } from '@/features/collections/components/document-content-pane';
import { DocumentsTable } from '@/features/collections/components/documents-table';
import { FileUploadPanel } from '@/features/collections/components/file-upload-panel';
import { WRITE_KEY_NOTICE_ID, WriteKeyNotice } from '@/features/collections/components/write-key-notice';

/** The Collections screen (spec §2 "Collections", §4): browse, search by prefix, read, upload. */
export function CollectionsView() {
  const { organizationId, workingKey, writeKey, permission, noOrganization } = useCurrentOrganization();
  const { status: organizationStatus, collectionsList } = useCollectionsList();
  const [state, dispatch] = useReducer(collectionsReducer, initialCollectionsState);
  const [creating, setCreating] = useState(false);
  const now = useNow();
  const fileUploads = useFileUploads(writeKey, workingKey);

  // Another organization, or a collection that no longer exists, leaves nothing chosen.
  useEffect(() => {
    if (organizationStatus === 'success' && state.name !== null && !collectionsList.includes(state.name)) {
      dispatch({ type: 'selectCollection', name: null });
    }
  }, [organizationStatus, collectionsList, state.name]);
  useEffect(() => {
    dispatch({ type: 'selectCollection', name: null });
  }, [organizationId]);

  const name = workingKey ? state.name : null;
  const prefix = useDebouncedValue(state.searchQuery);
  const visible = useRouteActive('collections');
  const collectionStatus = useQuery(collectionStatusQueryOptions(workingKey, name, visible));
  const documents = useQuery(documentsQueryOptions(workingKey, name, prefix, visible));

  // Polling stops while the screen is hidden; coming back reloads what may have changed.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!visible || !name) return;
    void queryClient.invalidateQueries({ queryKey: collectionStatusKey(workingKey, name) });
    void queryClient.invalidateQueries({ queryKey: documentsKey(workingKey, name) });
    // Only on becoming visible: the collection's own changes already start new queries.
  }, [visible]);

  // Every new list of documents may drop the selected path (spec §4).
  useEffect(() => {
    if (documents.data && !documents.isPlaceholderData) dispatch({ type: 'documentsSet', paths: documents.data.map((d) => d.path) });
  }, [documents.data, documents.isPlaceholderData]);

  const selectedDocument = documents.data?.find((d) => d.path === state.selectedDocumentPath) ?? null;
  const loaded = organizationStatus === 'success';
  const canWrite = writeKey !== null && loaded;

  if (noOrganization) {
    return (
      <Page title="Collections">
        <NoOrganization />
      </Page>
    );
  }
  return (
    <Page
      title="Collections"
      actions={
        loaded ? (
          <Button variant="secondary" disabled={!canWrite} aria-describedby={canWrite ? undefined : WRITE_KEY_NOTICE_ID} onClick={() => setCreating(true)}>
            <FolderPlus className="size-4" aria-hidden />
            New Collection
          </Button>
        ) : null
      }
    >
      <div className="flex flex-col gap-4">
        {loaded && !writeKey ? <WriteKeyNotice hasKey={workingKey !== null} isOwner={permission === 'OWNER'} /> : null}
        <div className="flex flex-wrap items-start gap-4">
          <CollectionPicker
            placeholder={collectionsMessages.pickerPlaceholder}
            emptyText={canWrite ? collectionsMessages.noCollectionsYet : undefined}
            value={name}
            onChange={(next) => dispatch({ type: 'selectCollection', name: next })}
          />
          <div className="min-w-0 flex-1 basis-80">
            <CollectionStatusCounters status={name ? collectionStatus : null} />
          </div>
        </div>

        {name && canWrite ? (
          <FileUploadPanel
            collectionName={name}
            uploads={fileUploads.uploads}
            onUpload={(files, overwrite) => void fileUploads.upload(name, files, overwrite)}
            onClearFinished={fileUploads.clearFinished}
          />
        ) : null}

        {/* Side by side from 1024 px, stacked below; one pane until a collection is chosen. */}
        <div
          className={cn(
            'grid grid-cols-1 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm',
            name ? 'lg:h-[36rem] lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]' : '',
          )}
        >
          <div className={cn('flex min-h-0 flex-col', name && 'max-h-[24rem] border-b border-slate-200 lg:max-h-none lg:border-r lg:border-b-0')}>
            <div className="border-b border-slate-100 p-3">
              <div className="relative">
                <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
                <Input
                  type="search"
                  aria-label="Search files by prefix"
                  className="pl-9"
                  disabled={!name}
                  placeholder={name ? collectionsMessages.prefixPlaceholder : collectionsMessages.prefixPlaceholderNoCollection}
                  value={state.searchQuery}
                  onChange={(event) => dispatch({ type: 'setSearchQuery', searchQuery: event.target.value })}
                />
              </div>
            </div>
            <div className="min-h-0 flex-1 overflow-auto">
              <DocumentsTable
                collectionName={name}
                documents={name ? documents : null}
                searching={prefix.trim() !== ''}
                selectedPath={state.selectedDocumentPath}
                onSelect={(path) => dispatch({ type: 'selectDocument', path })}
                now={now}
              />
            </div>
          </div>
          {name ? (
            <DocumentContentPane
              workingKey={workingKey}
              collectionName={name}
              selectedPath={state.selectedDocumentPath}
              document={selectedDocument}
              showMetadata={state.showMetadata}
              onShowMetadataChange={(showMetadata) => dispatch({ type: 'setShowMetadata', showMetadata })}
            />
          ) : null}
        </div>
      </div>
      <CreateCollectionDialog open={creating} onClose={() => setCreating(false)} onCreated={(created) => dispatch({ type: 'selectCollection', name: created })} />
    </Page>
  );
}
