export * from './common.ts';
export * from './dashboard.ts';
export * from './billing.ts';
