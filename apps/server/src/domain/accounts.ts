import { randomUUID } from 'node:crypto';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../clock.ts';
import { NotFound } from './errors.ts';
import type { DashboardActor } from './dashboard-actor.ts';

export interface User {
  id: string;
  name: string;
  email: string;
}

/**
 * The user an identity provider vouched for, created on first sign-in. An e-mail the provider
 * has verified is the account's key, so the same person signing in locally and through OpenID
 * lands in one account.
 */
export async function upsertUserByEmail(
  { db }: Database,
  input: { email: string; name: string; issuer?: string; subject?: string },
): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim() || email.split('@')[0]!;
  let user = await db.selectFrom('users').select(['id', 'name', 'email']).where('email', '=', email).executeTakeFirst();
  if (!user) {
    user = { id: randomUUID(), name, email };
    await db.insertInto('users').values({ ...user, created_at: nowIso() }).onConflict((oc) => oc.column('email').doNothing()).execute();
    user = await db.selectFrom('users').select(['id', 'name', 'email']).where('email', '=', email).executeTakeFirstOrThrow();
  }
  if (input.issuer && input.subject) {
    await db
      .insertInto('identities')
      .values({ issuer: input.issuer, subject: input.subject, user_id: user.id, created_at: nowIso() })
      .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
      .execute();
  }
  return user;
}

export async function getUser({ db }: Database, userId: string): Promise<User> {
  const user = await db.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new NotFound('User not found.');
  return user;
}

/** The user with their organizations, oldest membership first (spec §7 get-user). */
export async function getUserWithOrganizations(database: Database, { userId }: Pick<DashboardActor, 'userId'>, _input: unknown = {}) {
  const user = await getUser(database, userId);
  const organizations = await database.db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['organizations.id', 'organizations.created_at', 'organizations.name', 'memberships.permission'])
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.created_at')
    .orderBy('organizations.name')
    .execute();
  return { user, organizations };
}
