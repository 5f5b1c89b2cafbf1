import type {
  AdminAddApiKeyRequest,
  AdminDeleteApiKeyRequest,
  AdminGetOrganizationResponse,
  AdminSubscriptionTier,
  AdminUpdateApiKeyRequest,
  AdminUpdateOrganizationRequest,
} from '@sift/contracts';
import type { Keyring } from '../auth/keyring.ts';
import { subscriptionState } from '../billing/periods.ts';
import type { Database } from '../db/schema.ts';
import { insertApiKey } from './api-keys.ts';
import type { Lookups } from './lookups.ts';
import type { ApiKeyActor } from './provider-actor.ts';
import { loadSubscription, setPlanByAdmin } from './billing.ts';
import { nowIso } from '../clock.ts';
import { NotFound } from './errors.ts';

/**
 * The admin API (/v1/admin/*): an installation's operator, holding SIFT_ADMIN_KEY, provisions
 * organizations and their API keys for a platform built on Sift. Organizations made here are
 * ordinary organizations: named by their id until renamed, seen in the dashboard by their members,
 * bound by every rule of the spec.
 */
export interface AdminActor {
  /** Keys are shown whole to the admin, so the keyring that encrypts them comes along. */
  keyring: Keyring;
  /** Keys the server verified lately: forgotten when the admin changes one. */
  verifiedApiKeys: Lookups<ApiKeyActor>;
}

export const adminMessages = {
  organizationNotFound: 'Organization not found.',
  apiKeyNotFound: 'API key not found.',
} as const;

async function requireOrganization({ db }: Database, organizationId: string) {
  const organization = await db
    .selectFrom('organizations')
    .select(['id', 'name', 'override_bpm_fast', 'override_bpm_slow', 'override_max_bytes_per_request', 'zdr'])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!organization) throw new NotFound(adminMessages.organizationNotFound);
  return organization;
}

/** Creates the organization with this id, named by it; `created: false` when it already exists. */
export async function adminCreateOrganization({ db }: Database, _actor: AdminActor, input: { organization_id: string }) {
  const { numInsertedOrUpdatedRows } = await db
    .insertInto('organizations')
    .values({
      id: input.organization_id,
      name: input.organization_id,
      created_at: nowIso(),
      aws_marketplace_token: null,
      vercel_marketplace_token: null,
      override_bpm_fast: null,
      override_bpm_slow: null,
      override_max_bytes_per_request: null,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return { created: Number(numInsertedOrUpdatedRows ?? 0n) > 0 };
}

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

export async function adminGetOrganization(database: Database, _actor: AdminActor, input: { organization_id: string }): Promise<AdminGetOrganizationResponse> {
  const organization = await requireOrganization(database, input.organization_id);
  const plan = subscriptionState(await loadSubscription(database.db, organization.id), new Date()).subscriptionType;
  return {
    organization_id: organization.id,
    name: organization.name,
    subscription_tier: plan === 'none' ? 'free' : plan,
    override_bpm_fast: nullableNumber(organization.override_bpm_fast),
    override_bpm_slow: nullableNumber(organization.override_bpm_slow),
    override_max_bytes_per_request: nullableNumber(organization.override_max_bytes_per_request),
    zdr: Boolean(organization.zdr),
  };
}

/** Only the fields given change; an override of 0 removes it (back to the tier's default). */
export async function adminUpdateOrganization(database: Database, _actor: AdminActor, input: AdminUpdateOrganizationRequest) {
  await requireOrganization(database, input.organization_id);
  const override = (value: number | null | undefined) => (value == null ? undefined : value === 0 ? null : value);
  const change = {
    override_bpm_fast: override(input.override_bpm_fast),
    override_bpm_slow: override(input.override_bpm_slow),
    override_max_bytes_per_request: override(input.override_max_bytes_per_request),
    zdr: input.zdr == null ? undefined : input.zdr ? 1 : 0,
  };
  await database.db.transaction().execute(async (trx) => {
    const set = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length) await trx.updateTable('organizations').set(set).where('id', '=', input.organization_id).execute();
    if (input.subscription_tier) await setPlanByAdmin(trx, input.organization_id, tierPlan(input.subscription_tier));
  });
  return { message: 'Success!' };
}

const tierPlan = (tier: AdminSubscriptionTier) => (tier === 'free' ? 'none' : tier);

export async function adminAddApiKey(database: Database, actor: AdminActor, input: AdminAddApiKeyRequest) {
  await requireOrganization(database, input.organization_id);
  const key = await insertApiKey(database, actor.keyring, { ...input, created_by: null, created_by_name: input.created_by ?? null });
  return { api_key: key.api_key };
}

export async function adminListApiKeys(database: Database, actor: AdminActor, input: { organization_id: string }) {
  await requireOrganization(database, input.organization_id);
  const rows = await database.db
    .selectFrom('api_keys')
    .leftJoin('users', 'users.id', 'api_keys.created_by')
    .select(['api_keys.id', 'api_keys.name', 'api_keys.key_ciphertext', 'api_keys.created_at', 'api_keys.permission', 'api_keys.created_by_name', 'users.name as user_name'])
    .where('api_keys.organization_id', '=', input.organization_id)
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.id')
    .execute();
  return {
    api_keys: rows.map((row) => ({
      id: row.id,
      created_at: row.created_at,
      name: row.name,
      permission: row.permission,
      created_by: row.user_name ?? row.created_by_name ?? null,
      api_key: actor.keyring.decrypt(row.key_ciphertext),
    })),
  };
}

export async function adminUpdateApiKey(database: Database, actor: AdminActor, input: AdminUpdateApiKeyRequest) {
  await requireOrganization(database, input.organization_id);
  const change = {
    ...(input.name != null ? { name: input.name.trim() } : {}),
    ...(input.permission != null ? { permission: input.permission } : {}),
  };
  const query = database.db.updateTable('api_keys').where('id', '=', input.api_key_id).where('organization_id', '=', input.organization_id);
  const { numUpdatedRows } = Object.keys(change).length
    ? await query.set(change).executeTakeFirst()
    : await query.set((eb) => ({ name: eb.ref('name') })).executeTakeFirst();
  actor.verifiedApiKeys.clear();
  if (numUpdatedRows === 0n) throw new NotFound(adminMessages.apiKeyNotFound);
  return { message: 'Success!' };
}

export async function adminDeleteApiKey(database: Database, actor: AdminActor, input: AdminDeleteApiKeyRequest) {
  await requireOrganization(database, input.organization_id);
  const { numDeletedRows } = await database.db
    .deleteFrom('api_keys')
    .where('id', '=', input.api_key_id)
    .where('organization_id', '=', input.organization_id)
    .executeTakeFirst();
  actor.verifiedApiKeys.clear();
  if (numDeletedRows === 0n) throw new NotFound(adminMessages.apiKeyNotFound);
  return { message: 'Success!' };
}
