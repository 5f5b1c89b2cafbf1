export * from './common.ts';
export * from './dashboard.ts';
export * from './billing.ts';
export * from './provider/retrieval.ts';
export * from './provider/models.ts';
export * from './provider/parsers.ts';
export * from './provider/usage.ts';
