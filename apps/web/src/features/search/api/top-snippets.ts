import { SEARCH_RESULT_COUNT } from '@/lib/constants';
import { createProviderClient } from '@/lib/provider-client';

export interface SnippetResult {
  path: string;
  /** [first page, last page + 1), as the API gives it. */
  pageSpan: [number, number];
  startIndex: number;
  endIndex: number;
  score: number;
  content: string;
}

/** /queries/top-snippets with k = 25: coarse snippets (precise_responses false) or fine ones (true). */
export async function topSnippets(
  workingKey: string,
  collectionName: string,
  query: string,
  precise: boolean,
  signal?: AbortSignal,
): Promise<SnippetResult[]> {
  const { results } = await createProviderClient(workingKey).queries.topSnippets(
    { collection_name: collectionName, query, k: SEARCH_RESULT_COUNT, precise_responses: precise },
    { signal },
  );
  return results.map((snippet) => ({
    path: snippet.path,
    pageSpan: [snippet.page_span[0] ?? 0, snippet.page_span[1] ?? snippet.page_span[0] ?? 0],
    startIndex: snippet.start_index,
    endIndex: snippet.end_index,
    score: snippet.score,
    content: snippet.content,
  }));
}
