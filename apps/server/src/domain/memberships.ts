import type { Database } from '../db/schema.ts';
import { Forbidden, NotFound } from './errors.ts';
import { messages } from './messages.ts';

export type Permission = 'OWNER' | 'MEMBER';

/** A user's permission in an organization, or undefined when they are not a member. */
export async function findPermission({ db }: Database, userId: string, organizationId: string): Promise<Permission | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('permission')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.permission;
}

/**
 * The caller's permission in an organization. Someone outside it learns nothing, not even
 * whether it exists: the answer is the same 404 as for a made-up id.
 */
export async function requireMember(database: Database, userId: string, organizationId: string): Promise<Permission> {
  const permission = await findPermission(database, userId, organizationId);
  if (!permission) throw new NotFound(messages.notAMember);
  return permission;
}

export async function requireOwner(
  database: Database,
  userId: string,
  organizationId: string,
  refusal: string,
): Promise<void> {
  if ((await requireMember(database, userId, organizationId)) !== 'OWNER') throw new Forbidden(refusal);
}
