/**
 * The Collections screen's own state (spec §3 collectionsRoute): the chosen collection, the
 * prefix search query, the show-metadata flag and the selected document path. The collection
 * status and documents are server state (TanStack Query, keyed by collection and query), so
 * "resetting them to idle" is choosing a key that has no data yet.
 */
export interface CollectionsRouteState {
  name: string | null;
  searchQuery: string;
  showMetadata: boolean;
  selectedDocumentPath: string | null;
}

export type CollectionsAction =
  | { type: 'selectCollection'; name: string | null }
  | { type: 'setSearchQuery'; searchQuery: string }
  | { type: 'setShowMetadata'; showMetadata: boolean }
  | { type: 'selectDocument'; path: string | null }
  | { type: 'documentsSet'; paths: readonly string[] };

export const initialCollectionsState: CollectionsRouteState = {
  name: null,
  searchQuery: '',
  showMetadata: false,
  selectedDocumentPath: null,
};

export function collectionsReducer(state: CollectionsRouteState, action: CollectionsAction): CollectionsRouteState {
  switch (action.type) {
    case 'selectCollection':
      // A different collection resets its query (and, by key, its status and documents) but
      // keeps the show-metadata flag and the selected document path (spec §4).
      if (action.name === state.name) return state;
      return { ...state, name: action.name, searchQuery: '' };
    case 'setSearchQuery':
      return state.searchQuery === action.searchQuery ? state : { ...state, searchQuery: action.searchQuery };
    case 'setShowMetadata':
      return state.showMetadata === action.showMetadata ? state : { ...state, showMetadata: action.showMetadata };
    case 'selectDocument':
      return state.selectedDocumentPath === action.path ? state : { ...state, selectedDocumentPath: action.path };
    case 'documentsSet':
      // When documents are set, a selected path not among them is cleared (spec §4).
      if (state.selectedDocumentPath === null || action.paths.includes(state.selectedDocumentPath)) return state;
      return { ...state, selectedDocumentPath: null };
  }
}
