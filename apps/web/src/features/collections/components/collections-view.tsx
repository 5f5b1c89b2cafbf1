import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FolderPlus } from 'lucide-react';
import { type Dispatch, useEffect, useReducer, useState } from 'react';
import { CollectionPicker } from '@/components/collection-picker';
import { NoOrganization } from '@/components/no-organization';
import { Button } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { useCollectionsList } from '@/lib/collections-list';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useRouteActive } from '@/lib/use-route-visited';
import { collectionStatusKey, collectionStatusQueryOptions } from '@/features/collections/api/get-collection-status';
import { documentsKey, documentsQueryOptions } from '@/features/collections/api/list-documents';
import { collectionsMessages } from '@/features/collections/collections-messages';
import { type CollectionsAction, collectionsReducer, initialCollectionsState } from '@/features/collections/collections-state';
import { useDebouncedValue } from '@/features/collections/use-debounced-value';
import { useFileUploads } from '@/features/collections/use-file-uploads';
import { useNow } from '@/features/collections/use-now';
import { CollectionStatusCounters } from '@/features/collections/components/collection-status-counters';
import { CreateCollectionDialog } from '@/features/collections/components/create-collection-dialog';
import { DocumentsBrowser } from '@/features/collections/components/documents-browser';
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
  const { prefix, collectionStatus, documents } = useCollectionQueries(workingKey, name, state.searchQuery, dispatch);

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

        <DocumentsBrowser workingKey={workingKey} collectionName={name} state={state} dispatch={dispatch} documents={documents} prefix={prefix} now={now} />
      </div>
      <CreateCollectionDialog open={creating} onClose={() => setCreating(false)} onCreated={(created) => dispatch({ type: 'selectCollection', name: created })} />
    </Page>
  );
}

/**
 * The chosen collection's status and the documents matching the settled search query, polled
 * while the screen shows; every new list is handed to the screen's state.
 */
function useCollectionQueries(workingKey: string | null, name: string | null, searchQuery: string, dispatch: Dispatch<CollectionsAction>) {
  const prefix = useDebouncedValue(searchQuery);
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

  return { prefix, collectionStatus, documents };
}
