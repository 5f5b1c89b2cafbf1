import { SEARCH_RESULT_COUNT } from '@/lib/constants';
import { createProviderClient } from '@/lib/provider-client';

export interface PageResult {
  path: string;
  pageIndex: number;
  score: number;
  content: string;
}

/** /queries/top-pages with k = 25 and the pages' content. */
export async function topPages(workingKey: string, collectionName: string, query: string, signal?: AbortSignal): Promise<PageResult[]> {
  const { results } = await createProviderClient(workingKey).queries.topPages(
    { collection_name: collectionName, query, k: SEARCH_RESULT_COUNT, include_content: true },
    { signal },
  );
  return results.map((page) => ({ path: page.path, pageIndex: page.page_index, score: page.score, content: page.content ?? '' }));
}
