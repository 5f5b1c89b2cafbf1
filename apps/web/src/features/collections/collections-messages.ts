/** The Collections screen's words (spec §2 "Collections", §8 "Document display"). */
export const collectionsMessages = {
  pickerPlaceholder: 'Select a Collection',
  loadingCollections: 'Loading collections list...',
  noApiKey: 'No API Key is available. Please create an API Key!',
  prefixPlaceholder: 'Search files by prefix...',
  prefixPlaceholderNoCollection: 'Select a Collection first.',
  selectCollection: 'Select a collection to view files',
  selectFile: 'Select a file to view its contents',
  noMetadata: 'No metadata available',
  showMetadata: 'Show Metadata',
  parsingFailed: 'Document parsing failed. Please check the file format and try uploading again.',
  /** Not worded by the spec: its parsing message would misname an indexing failure. */
  indexingFailed: 'Document indexing failed. Please try uploading it again.',
  parsingInProgress: 'The document is being parsed. Its content shows once parsing and indexing are done.',
  indexingInProgress: 'The document is being indexed. Its content shows once indexing is done.',
  documentsFailed: (message: string) => `Error loading documents: ${message}`,
  documentNotFound: 'Document Not Found',
  contentFailed: (message: string) => `Error loading document content: ${message}`,
  noContent: 'Could not fetch document content',
  statusFailed: 'Fetching collection failed...',
  documentSearchFailed: 'Document Search failed...',
  noFiles: 'No files found',
  /** Beside New Collection, instead of the Search picker's 'upload a collection first'. */
  noCollectionsYet: 'No collections yet: create one with New Collection.',
} as const;
