import { SEARCH_RESULT_COUNT } from '@/lib/constants';
import { createProviderClient } from '@/lib/provider-client';

export interface DocumentResult {
  path: string;
  score: number;
}

/** /queries/top-documents with k = 25. */
export async function topDocuments(workingKey: string, collectionName: string, query: string, signal?: AbortSignal): Promise<DocumentResult[]> {
  const { results } = await createProviderClient(workingKey).queries.topDocuments({ collection_name: collectionName, query, k: SEARCH_RESULT_COUNT }, { signal });
  return results.map(({ path, score }) => ({ path, score }));
}
