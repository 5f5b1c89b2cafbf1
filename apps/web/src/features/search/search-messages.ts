/** The Search screen's words (spec §2 "Search", §8 "Search fails"). */
export const searchMessages = {
  loadingCollections: 'Loading collections list...',
  noApiKey: 'No API Key is available. Please create an API Key!',
  noCollections: 'You have to upload a collection first! Check out the documentation to learn how.',
  selectCollection: 'Please select a collection',
  pressEnter: 'Press enter to begin searching',
  loading: 'Loading results...',
  noResults: 'No results found',
  queryPlaceholder: 'Search...',
  failed: (message: string) =>
    `Search failed. Please check your internet connection or contact support if the problem persists. Error: ${message}`,
} as const;

/** The four result tabs; their names are fixed (spec §9). */
export const RESULT_TABS = [
  { value: 'documents', label: 'Top Documents' },
  { value: 'pages', label: 'Top Pages' },
  { value: 'coarse', label: 'Top Coarse Snippets' },
  { value: 'fine', label: 'Top Fine Snippets' },
] as const;

export type ResultTab = (typeof RESULT_TABS)[number]['value'];
