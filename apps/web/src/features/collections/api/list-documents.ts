import { queryOptions } from '@tanstack/react-query';
import { createProviderClient } from '@/lib/provider-client';
import { isFinalStatus, type ProviderIndexStatus } from '../document-status';
import { keepPreviousWithinCollection } from '../keep-previous-within-collection';
import { pollInterval } from '../polling';

/** A document row (spec §3): path, createdAt, fileSize, metadata, indexStatus, file_url. */
export interface DocumentSummary {
  path: string;
  createdAt: string;
  fileSize: number;
  metadata: Record<string, string | string[]>;
  indexStatus: ProviderIndexStatus;
  fileUrl: string;
  /** Why a failed document failed (Sift's `failure_reason`), else null. */
  failureReason: string | null;
}

/** The provider's largest page (OpenAPI: limit at most 1024). */
const PAGE_SIZE = 1024;

/**
 * Every document of a collection whose path starts with the prefix, over every page of the
 * cursor: each next page asks for paths greater than the last one received (path_gt). The
 * SDK's own auto-paging is not used: for this POST list it repeats the first page's body
 * without path_gt (zeroentropy 0.1.0-alpha.10) and never ends.
 */
export async function listDocuments(workingKey: string, collectionName: string, pathPrefix: string): Promise<DocumentSummary[]> {
  const client = createProviderClient(workingKey);
  const documents: DocumentSummary[] = [];
  let pathGt: string | undefined;
  for (;;) {
    const page = await client.documents.getInfoList({
      collection_name: collectionName,
      path_prefix: pathPrefix || null,
      limit: PAGE_SIZE,
      ...(pathGt === undefined ? {} : { path_gt: pathGt }),
    });
    const batch = page.documents;
    for (const document of batch) {
      documents.push({
        path: document.path,
        createdAt: document.created_at,
        fileSize: document.size,
        metadata: document.metadata ?? {},
        indexStatus: document.index_status,
        fileUrl: document.file_url,
        failureReason: (document as { failure_reason?: string | null }).failure_reason ?? null,
      });
    }
    const last = batch.at(-1)?.path;
    if (batch.length < PAGE_SIZE || last === undefined || last === pathGt) return documents;
    pathGt = last;
  }
}

/** The key prefix of every document list of a collection, whatever the path prefix. */
export const documentsKey = (workingKey: string | null, collectionName: string | null) => ['documents', workingKey, collectionName] as const;

/**
 * Polled while the screen shows (fast while a listed document is not final, slowly otherwise);
 * the previous list stays while reloading.
 */
export const documentsQueryOptions = (workingKey: string | null, collectionName: string | null, pathPrefix: string, visible = true) =>
  queryOptions({
    queryKey: [...documentsKey(workingKey, collectionName), pathPrefix] as const,
    queryFn: () => listDocuments(workingKey!, collectionName!, pathPrefix),
    enabled: workingKey !== null && collectionName !== null,
    placeholderData: keepPreviousWithinCollection(collectionName),
    staleTime: 0,
    refetchInterval: (query) => pollInterval(visible, !!query.state.data?.some((d) => !isFinalStatus(d.indexStatus))),
  });
