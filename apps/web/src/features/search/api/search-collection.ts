import { type DocumentResult, topDocuments } from '@/features/search/api/top-documents';
import { type PageResult, topPages } from '@/features/search/api/top-pages';
import { type SnippetResult, topSnippets } from '@/features/search/api/top-snippets';

/** The spec's search result (§3): documents, pages, coarse and fine snippets. */
export interface SearchResults {
  documents: DocumentResult[];
  pages: PageResult[];
  coarse: SnippetResult[];
  fine: SnippetResult[];
}

/** One search: the four queries in parallel (spec §4); any failure fails the search. */
export async function searchCollection(workingKey: string, collectionName: string, query: string, signal?: AbortSignal): Promise<SearchResults> {
  const [documents, pages, coarse, fine] = await Promise.all([
    topDocuments(workingKey, collectionName, query, signal),
    topPages(workingKey, collectionName, query, signal),
    topSnippets(workingKey, collectionName, query, false, signal),
    topSnippets(workingKey, collectionName, query, true, signal),
  ]);
  return { documents, pages, coarse, fine };
}
