/**
 * PostgreSQL's error codes that Sift answers rather than fails on, named once. Collections'
 * postings and vectors tables come and go with their collections, so several servers meet tables
 * dropped or made by another at the same moment.
 */
export const POSTGRES_ERRORS = {
  /** undefined_table: dropped by another server (a deleted collection's table). */
  undefinedTable: '42P01',
  /** unique_violation: a row of the catalog another server made at the same moment. */
  uniqueViolation: '23505',
  /** duplicate_table: a table or index another server made at the same moment. */
  duplicateTable: '42P07',
  /** foreign_key_violation: a row of a collection deleted meanwhile. */
  foreignKeyViolation: '23503',
  /** lock_not_available: lock_timeout passed waiting for others. */
  lockNotAvailable: '55P03',
} as const;

/** Whether `error` is a PostgreSQL error with one of these codes. */
export function hasPostgresCode(error: unknown, ...codes: string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && codes.includes(code);
}

/** Made by another server at the same moment: its table or index is as good as ours. */
export const madeMeanwhile = (error: unknown): boolean => hasPostgresCode(error, POSTGRES_ERRORS.uniqueViolation, POSTGRES_ERRORS.duplicateTable);
