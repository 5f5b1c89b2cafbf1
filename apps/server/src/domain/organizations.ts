import { randomUUID } from 'node:crypto';
import type { Database } from '../db/schema.ts';
import { stopBillingOfDeletedOrganization } from './billing.ts';
import { nowIso } from '../clock.ts';
import type { EngineServices } from '../engine/engine.ts';
import { deleteCollectionsOf } from './collections.ts';
import { requireMember, requireOwner } from './memberships.ts';
import { messages } from './messages.ts';
import type { DashboardActor } from './dashboard-actor.ts';

export interface CreateOrganizationInput {
  name: string;
  aws_marketplace_token?: string;
  vercel_marketplace_token?: string;
}

/** A new organization owned by its creator (any signed-in user may create one). */
export async function createOrganization({ db }: Database, { userId }: Pick<DashboardActor, 'userId'>, input: CreateOrganizationInput) {
  const organization = { id: randomUUID(), name: input.name.trim(), created_at: nowIso() };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('organizations')
      .values({
        ...organization,
        aws_marketplace_token: input.aws_marketplace_token ?? null,
        vercel_marketplace_token: input.vercel_marketplace_token ?? null,
      })
      .execute();
    await trx
      .insertInto('memberships')
      .values({ organization_id: organization.id, user_id: userId, permission: 'OWNER', created_at: organization.created_at })
      .execute();
  });
  return { ...organization, permission: 'OWNER' as const };
}

/** Organization detail of spec §3: members, API keys (shown whole to members), pending invites. */
export async function getOrganizationInfo(
  database: Database,
  { keyring, userId }: Pick<DashboardActor, 'keyring' | 'userId'>,
  { organization_id: organizationId }: { organization_id: string },
) {
  await requireMember(database, userId, organizationId);
  const { db } = database;
  const organization = await db
    .selectFrom('organizations')
    .select(['id', 'name', 'created_at'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const [users, keys, invites] = await Promise.all([
    db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.name', 'users.email', 'memberships.permission'])
      .where('memberships.organization_id', '=', organizationId)
      .orderBy('memberships.created_at')
      .execute(),
    db
      .selectFrom('api_keys')
      .leftJoin('users', 'users.id', 'api_keys.created_by')
      .select([
        'api_keys.id',
        'api_keys.name',
        'api_keys.key_ciphertext',
        'api_keys.created_at',
        'api_keys.permission',
        'api_keys.created_by_name as given_created_by',
        'users.name as created_by_name',
      ])
      .where('api_keys.organization_id', '=', organizationId)
      .orderBy('api_keys.created_at')
      .orderBy('api_keys.id')
      .execute(),
    db
      .selectFrom('invites')
      .select(['email', 'permission'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .execute(),
  ]);
  return {
    ...organization,
    users,
    api_keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      api_key: keyring.decrypt(key.key_ciphertext),
      created_at: key.created_at,
      permission: key.permission,
      created_by: key.created_by_name ?? key.given_created_by ?? null,
    })),
    invited_emails: invites,
  };
}

export async function renameOrganization(database: Database, { userId }: Pick<DashboardActor, 'userId'>, input: { organization_id: string; name: string }) {
  await requireOwner(database, userId, input.organization_id, messages.onlyOwnersChangeOrganization);
  await database.db.updateTable('organizations').set({ name: input.name.trim() }).where('id', '=', input.organization_id).execute();
  return { message: 'Organization updated.' };
}

/**
 * Deletes the organization and, through foreign keys, everything under it; its collections go
 * first with their raw files (those no other organization shares), which live outside the
 * database. The caller says where raw files live.
 */
export async function deleteOrganization(
  database: Database,
  engine: EngineServices,
  actor: Pick<DashboardActor, 'billing' | 'userId' | 'files' | 'verifiedApiKeys' | 'foundCollections'>,
  input: { organization_id: string },
) {
  await requireOwner(database, actor.userId, input.organization_id, messages.onlyOwnersChangeOrganization);
  await stopBillingOfDeletedOrganization(database, actor.billing, input.organization_id);
  await deleteCollectionsOf(database, engine, actor, input.organization_id);
  await database.db.deleteFrom('organizations').where('id', '=', input.organization_id).execute();
  // Its keys went with it (foreign keys): none of them may answer again.
  actor.verifiedApiKeys.clear();
  return { message: 'Organization deleted.' };
}
