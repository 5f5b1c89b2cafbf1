import type { Database } from './schema.ts';

/**
 * Ingestion processes (and servers' ingestion threads) write a heartbeat here every few seconds,
 * so any server can tell whether the queue is served (readiness) wherever the workers run.
 */
export async function beat(database: Database, worker: { id: string; host: string; pid: number }, now = Date.now()): Promise<void> {
  await database.db
    .insertInto('ingest_workers')
    .values({ ...worker, seen_at: now })
    .onConflict((conflict) => conflict.column('id').doUpdateSet({ seen_at: now }))
    .execute();
}

export async function forget(database: Database, id: string): Promise<void> {
  await database.db.deleteFrom('ingest_workers').where('id', '=', id).execute();
}

/** Workers seen within `withinMs`; older rows (processes that died) are dropped on the way. */
export async function liveWorkers(database: Database, withinMs: number, now = Date.now()): Promise<number> {
  await database.db.deleteFrom('ingest_workers').where('seen_at', '<', now - 10 * withinMs).execute();
  const row = await database.db
    .selectFrom('ingest_workers')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('seen_at', '>=', now - withinMs)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
