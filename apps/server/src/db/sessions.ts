import type { Database } from './schema.ts';

/** Records a new session of this user, and forgets the user's sessions that have expired. */
export async function insertSession(database: Database, session: { id: string; userId: string; expiresAt: Date }): Promise<void> {
  const now = new Date().toISOString();
  await database.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('user_id', '=', session.userId).where('expires_at', '<', now).execute();
    await trx
      .insertInto('sessions')
      .values({ id: session.id, user_id: session.userId, created_at: now, expires_at: session.expiresAt.toISOString() })
      .execute();
  });
}

/** Whether this session of this user exists and has not expired. */
export async function sessionIsLive(database: Database, id: string, userId: string): Promise<boolean> {
  const row = await database.db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date().toISOString())
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteSession(database: Database, id: string): Promise<void> {
  await database.db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of the user; the number ended. */
export async function deleteUserSessions(database: Database, userId: string): Promise<number> {
  const result = await database.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
