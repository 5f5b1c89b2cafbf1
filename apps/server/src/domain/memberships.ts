import type { Database } from '../db/schema.ts';
import { Forbidden, NotFound } from './errors.ts';
import { messages } from './messages.ts';

export type Permission = 'OWNER' | 'MEMBER';

/**
 * The caller's permission in an organization. Someone outside it learns nothing, not even
 * whether it exists: the answer is the same 404 as for a made-up id.
 */
export async function requireMember({ db }: Database, userId: string, organizationId: string): Promise<Permission> {
  const row = await db
    .selectFrom('memberships')
    .select('permission')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new NotFound(messages.notAMember);
  return row.permission;
}

export async function requireOwner(
  database: Database,
  userId: string,
  organizationId: string,
  refusal: string,
): Promise<void> {
  if ((await requireMember(database, userId, organizationId)) !== 'OWNER') throw new Forbidden(refusal);
}
