// The provider API's retrieval half: status, collections, documents, queries.
export * from './common.ts';
export * from './status.ts';
export * from './collections.ts';
export * from './documents.ts';
export * from './queries.ts';
