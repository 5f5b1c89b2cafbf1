/** Collections, documents (the ingestion queue), pages and chunks. Filled in by the retrieval engine. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RetrievalTables {}
