/**
 * Business constants of spec §9 on the web side: the one module they live in, imported and never
 * retyped. Add the other screens' constants here.
 */

/** Default search result count k (spec §9), sent with each of the four queries of a search. */
export const SEARCH_RESULT_COUNT = 25;

/** File sizes on the Collections screen: B, KB, MB, GB in steps of 1024 with one decimal (spec §9). */
export const COLLECTION_FILE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;
export const COLLECTION_FILE_SIZE_STEP = 1024;
