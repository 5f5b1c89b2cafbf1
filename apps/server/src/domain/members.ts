import { randomBytes } from 'node:crypto';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { hs256Key } from '../auth/keyring.ts';
import type { Database } from '../db/schema.ts';
import { getUser } from './accounts.ts';
import { nowIso } from '../clock.ts';
import { Forbidden, Invalid, NotFound } from './errors.ts';
import { findPermission, type Permission, requireMember, requireOwner } from './memberships.ts';
import { messages } from './messages.ts';
import type { DashboardActor } from './dashboard-actor.ts';

const INVITE_LIFETIME_SECONDS = 7 * 24 * 3600;

/**
 * Records a pending invite and returns its link. The link carries a signed token whose payload is
 * exactly spec §3's invite payload; `token` names the pending invite so a removed invite dies.
 */
export async function inviteUser(
  database: Database,
  { keyring, userId, dashboardUrl }: Pick<DashboardActor, 'keyring' | 'userId' | 'dashboardUrl'>,
  input: { organization_id: string; email: string; permission: Permission },
) {
  await requireOwner(database, userId, input.organization_id, messages.onlyOwnersAddMembers);
  const { db } = database;
  const email = input.email.trim().toLowerCase();
  const alreadyMember = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.id')
    .where('memberships.organization_id', '=', input.organization_id)
    .where('users.email', '=', email)
    .executeTakeFirst();
  if (alreadyMember) throw new Invalid(`${email} is already a member of this organization.`);

  const [organization, inviter] = await Promise.all([
    db.selectFrom('organizations').select('name').where('id', '=', input.organization_id).executeTakeFirstOrThrow(),
    getUser(database, userId),
  ]);
  const token = randomBytes(18).toString('base64url');
  await db
    .insertInto('invites')
    .values({ organization_id: input.organization_id, email, permission: input.permission, token, invited_by: userId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['organization_id', 'email']).doUpdateSet({ permission: input.permission, token, invited_by: userId }))
    .execute();
  const inviteJwt = await new SignJWT({
    org_id: input.organization_id,
    org_name: organization.name,
    from_email: inviter.email,
    token,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + INVITE_LIFETIME_SECONDS)
    .sign(await hs256Key(keyring.invite));
  const url = new URL('/organization', dashboardUrl);
  url.searchParams.set('invite', inviteJwt);
  return { invite_url: url.toString() };
}

export async function acceptInvite(database: Database, { keyring, userId }: Pick<DashboardActor, 'keyring' | 'userId'>, input: { invite_jwt: string }) {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(input.invite_jwt, await hs256Key(keyring.invite), { algorithms: ['HS256'] }));
  } catch {
    throw new Invalid(messages.inviteExpired);
  }
  const { db } = database;
  const invite = await db
    .selectFrom('invites')
    .innerJoin('organizations', 'organizations.id', 'invites.organization_id')
    .select(['invites.organization_id', 'invites.email', 'invites.permission', 'organizations.name', 'organizations.created_at'])
    .where('invites.organization_id', '=', String(payload.org_id))
    .where('invites.token', '=', String(payload.token))
    .executeTakeFirst();
  if (!invite) throw new Invalid(messages.inviteExpired);
  const existing = await findPermission(database, userId, invite.organization_id);
  await db.transaction().execute(async (trx) => {
    if (!existing) {
      await trx
        .insertInto('memberships')
        .values({ organization_id: invite.organization_id, user_id: userId, permission: invite.permission, created_at: nowIso() })
        .execute();
    }
    await trx
      .deleteFrom('invites')
      .where('organization_id', '=', invite.organization_id)
      .where('email', '=', invite.email)
      .execute();
  });
  return {
    id: invite.organization_id,
    created_at: invite.created_at,
    name: invite.name,
    permission: existing ?? invite.permission,
  };
}

export async function deleteInvite(database: Database, { userId }: Pick<DashboardActor, 'userId'>, input: { organization_id: string; email: string }) {
  await requireOwner(database, userId, input.organization_id, messages.onlyOwnersManageMembers);
  const { numDeletedRows } = await database.db
    .deleteFrom('invites')
    .where('organization_id', '=', input.organization_id)
    .where('email', '=', input.email.trim().toLowerCase())
    .executeTakeFirst();
  if (numDeletedRows === 0n) throw new NotFound('Invite not found.');
  return { message: 'Invite removed.' };
}

/** Owners change other members' permission; nobody changes their own. */
export async function updateMemberPermission(
  database: Database,
  { userId }: Pick<DashboardActor, 'userId'>,
  input: { organization_id: string; user_id: string; permission: Permission },
) {
  await requireOwner(database, userId, input.organization_id, messages.onlyOwnersManageMembers);
  if (input.user_id === userId) throw new Forbidden(messages.ownerOwnPermission);
  await requireTarget(database, input.organization_id, input.user_id);
  await database.db
    .updateTable('memberships')
    .set({ permission: input.permission })
    .where('organization_id', '=', input.organization_id)
    .where('user_id', '=', input.user_id)
    .execute();
  return { message: 'Permission updated.' };
}

/** Owners remove others; anyone may remove themselves (leaving), except the last owner. */
export async function removeMember(database: Database, { userId }: Pick<DashboardActor, 'userId'>, input: { organization_id: string; user_id: string }) {
  const permission = await requireMember(database, userId, input.organization_id);
  const leaving = input.user_id === userId;
  if (!leaving && permission !== 'OWNER') throw new Forbidden(messages.onlyOwnersManageMembers);
  const target = await requireTarget(database, input.organization_id, input.user_id);
  if (target === 'OWNER') {
    const owners = await database.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organization_id', '=', input.organization_id)
      .where('permission', '=', 'OWNER')
      .executeTakeFirstOrThrow();
    if (Number(owners.count) <= 1 && leaving) throw new Forbidden(messages.lastOwnerLeaving);
  }
  await database.db
    .deleteFrom('memberships')
    .where('organization_id', '=', input.organization_id)
    .where('user_id', '=', input.user_id)
    .execute();
  return { message: leaving ? 'You left the organization.' : 'Member removed.' };
}

async function requireTarget(database: Database, organizationId: string, userId: string): Promise<Permission> {
  const permission = await findPermission(database, userId, organizationId);
  if (!permission) throw new NotFound('Member not found.');
  return permission;
}
