import { queryOptions } from '@tanstack/react-query';
import { createProviderClient } from '@/lib/provider-client';

/** A document's text (get-document-info with include_content); '' when the server has none. */
export async function getDocumentContent(workingKey: string, collectionName: string, path: string): Promise<string> {
  const { document } = await createProviderClient(workingKey).documents.getInfo({ collection_name: collectionName, path, include_content: true });
  return document.content ?? '';
}

/** Content is held per path (spec §3); asked for only once the document is indexed. */
export const documentContentQueryOptions = (workingKey: string | null, collectionName: string | null, path: string | null, indexed: boolean) =>
  queryOptions({
    queryKey: ['document-content', workingKey, collectionName, path] as const,
    queryFn: () => getDocumentContent(workingKey!, collectionName!, path!),
    enabled: workingKey !== null && collectionName !== null && path !== null && indexed,
  });
