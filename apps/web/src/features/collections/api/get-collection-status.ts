import { queryOptions } from '@tanstack/react-query';
import { createProviderClient } from '@/lib/provider-client';
import { keepPreviousWithinCollection } from '@/features/collections/keep-previous-within-collection';
import { pollInterval } from '@/features/collections/polling';

/** The spec's collection status (§3), from the provider's status call for one collection. */
export interface CollectionStatus {
  numDocuments: number;
  numParsingDocuments: number;
  numIndexingDocuments: number;
  numIndexedDocuments: number;
  numFailedDocuments: number;
}

export async function getCollectionStatus(workingKey: string, collectionName: string): Promise<CollectionStatus> {
  const status = await createProviderClient(workingKey).status.getStatus({ collection_name: collectionName });
  return {
    numDocuments: status.num_documents,
    numParsingDocuments: status.num_parsing_documents,
    numIndexingDocuments: status.num_indexing_documents,
    numIndexedDocuments: status.num_indexed_documents,
    numFailedDocuments: status.num_failed_documents,
  };
}


export const collectionStatusKey = (workingKey: string | null, collectionName: string | null) => ['collection-status', workingKey, collectionName] as const;

/**
 * Polled while the screen shows (fast while any document is still parsing or indexing, slowly
 * otherwise, to notice documents added elsewhere); the previous figures stay while reloading.
 */
export const collectionStatusQueryOptions = (workingKey: string | null, collectionName: string | null, visible = true) =>
  queryOptions({
    queryKey: collectionStatusKey(workingKey, collectionName),
    queryFn: () => getCollectionStatus(workingKey!, collectionName!),
    enabled: workingKey !== null && collectionName !== null,
    placeholderData: keepPreviousWithinCollection(collectionName),
    staleTime: 0,
    refetchInterval: (query) => {
      const status = query.state.data;
      return pollInterval(visible, !!status && status.numParsingDocuments + status.numIndexingDocuments > 0);
    },
  });
