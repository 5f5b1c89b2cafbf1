import type { Kysely } from 'kysely';
import { createUsageRollups, dropUsageRollups } from '../usage-rollups.ts';

/** Hourly usage rollups kept by triggers (see db/usage-rollups.ts): fast long histories and counters. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createUsageRollups(db, ['documents', 'queries', 'reranker']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropUsageRollups(db, ['documents', 'queries', 'reranker']);
}
