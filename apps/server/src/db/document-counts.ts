import type { Database } from './schema.ts';

/** Documents and their bytes by index status, over the whole installation (metrics). */
export async function documentsByStatus({ db }: Database): Promise<{ status: string; count: number; bytes: number }[]> {
  const rows = await db
    .selectFrom('documents')
    .select((eb) => ['index_status', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('size').as('bytes')])
    .groupBy('index_status')
    .execute();
  return rows.map((row) => ({ status: row.index_status, count: Number(row.count), bytes: Number(row.bytes ?? 0) }));
}
