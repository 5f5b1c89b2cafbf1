import type { SearchResults } from '@/features/search/api/search-collection';

/** The search route of spec §3: the chosen collection and the result of the last search. */
export interface SearchRouteState {
  selectedCollection: string | null;
  searchResult: SearchResultState;
}

export type SearchResultState =
  | { status: 'idle' }
  | { status: 'loading'; requestId: number; query: string }
  | { status: 'success'; requestId: number; query: string; data: SearchResults }
  | { status: 'error'; requestId: number; query: string; error: string };

export type SearchAction =
  | { type: 'selectCollection'; name: string | null }
  | { type: 'searchStarted'; requestId: number; query: string }
  | { type: 'searchSucceeded'; requestId: number; data: SearchResults }
  | { type: 'searchFailed'; requestId: number; error: string }
  | { type: 'reset' };

export const initialSearchState: SearchRouteState = { selectedCollection: null, searchResult: { status: 'idle' } };

/** Search requires a non-empty trimmed query, an API key and a selected collection (spec §5). */
export function canSearch(query: string, workingKey: string | null, collection: string | null): boolean {
  return query.trim() !== '' && workingKey !== null && collection !== null;
}

export function searchReducer(state: SearchRouteState, action: SearchAction): SearchRouteState {
  switch (action.type) {
    case 'selectCollection':
      // Choosing a collection clears the previous result (spec §4).
      if (action.name === state.selectedCollection) return state;
      return { selectedCollection: action.name, searchResult: { status: 'idle' } };
    case 'searchStarted':
      // A new search resets old results.
      return { ...state, searchResult: { status: 'loading', requestId: action.requestId, query: action.query } };
    case 'searchSucceeded':
    case 'searchFailed': {
      // A result of a search that is no longer the current one is discarded.
      const current = state.searchResult;
      if (current.status !== 'loading' || current.requestId !== action.requestId) return state;
      return action.type === 'searchSucceeded'
        ? { ...state, searchResult: { status: 'success', requestId: action.requestId, query: current.query, data: action.data } }
        : { ...state, searchResult: { status: 'error', requestId: action.requestId, query: current.query, error: action.error } };
    }
    case 'reset':
      return initialSearchState;
  }
}
