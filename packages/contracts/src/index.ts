export * from './common.ts';
export * from './dashboard.ts';
