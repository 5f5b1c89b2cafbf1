import { setImmediate as servingRequests } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Snippets deleted per statement ahead of their documents: a 60 MB document has some 300,000, and
 * deleted with it in one statement they held SQLite's write lock and the HTTP thread (its
 * statements are synchronous) for as long as that took. Requests are served between statements.
 */
const DELETE_SNIPPETS = 2000;

/**
 * Deletes these documents' snippets a bounded number at a time; their documents go afterwards (a
 * crash in between leaves them without snippets until they are deleted again, as their owner asked).
 */
export async function deleteSnippetsOf(db: Kysely<DB>, documentIds: string[]): Promise<void> {
  if (documentIds.length === 0) return;
  for (;;) {
    const deleted = await db
      .deleteFrom('chunks')
      .where('seq', 'in', (eb) =>
        eb
          .selectFrom('chunks')
          .select('seq')
          .where('document_seq', 'in', eb.selectFrom('documents').select('seq').where('id', 'in', documentIds))
          .limit(DELETE_SNIPPETS),
      )
      .executeTakeFirst();
    await servingRequests();
    if (Number(deleted.numDeletedRows) < DELETE_SNIPPETS) return;
  }
}
