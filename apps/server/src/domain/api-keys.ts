import { randomBytes, randomUUID } from 'node:crypto';
import { hashApiKey, type Keyring } from '../auth/keyring.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../clock.ts';
import { NotFound, Unauthorized } from './errors.ts';
import { type Lookups, lookups } from './lookups.ts';
import { requireOwner } from './memberships.ts';
import { messages } from './messages.ts';
import type { DashboardActor } from './dashboard-actor.ts';
import type { ApiKeyActor, ApiKeyPermission } from './provider-actor.ts';

/** A new key: shown whole to the organization's members, stored as a hash plus ciphertext. */
export async function addApiKey(
  database: Database,
  { keyring, userId }: Pick<DashboardActor, 'keyring' | 'userId'>,
  input: { organization_id: string; name: string; permission: ApiKeyPermission },
) {
  await requireOwner(database, userId, input.organization_id, messages.onlyOwnersManageKeys);
  return insertApiKey(database, keyring, { ...input, created_by: userId, created_by_name: null });
}

/** Makes and stores a key (the dashboard's owners and the admin API both add keys this way). */
export async function insertApiKey(
  database: Database,
  keyring: Keyring,
  input: { organization_id: string; name: string; permission: ApiKeyPermission; created_by: string | null; created_by_name: string | null },
) {
  const apiKey = `sift_${randomBytes(24).toString('base64url')}`;
  const row = {
    id: randomUUID(),
    organization_id: input.organization_id,
    name: input.name.trim(),
    key_hash: hashApiKey(apiKey),
    key_ciphertext: keyring.encrypt(apiKey),
    permission: input.permission,
    created_by: input.created_by,
    created_by_name: input.created_by_name,
    created_at: nowIso(),
  };
  await database.db.insertInto('api_keys').values(row).execute();
  return { id: row.id, name: row.name, api_key: apiKey, created_at: row.created_at, permission: row.permission };
}

export async function deleteApiKey(database: Database, { userId, verifiedApiKeys }: Pick<DashboardActor, 'userId' | 'verifiedApiKeys'>, input: { organization_id: string; api_key_id: string }) {
  await requireOwner(database, userId, input.organization_id, messages.onlyOwnersManageKeys);
  const { numDeletedRows } = await database.db
    .deleteFrom('api_keys')
    .where('id', '=', input.api_key_id)
    .where('organization_id', '=', input.organization_id)
    .executeTakeFirst();
  verifiedApiKeys.clear();
  if (numDeletedRows === 0n) throw new NotFound('API key not found.');
  return { message: 'API key deleted.' };
}

export async function updateApiKey(
  database: Database,
  { userId, verifiedApiKeys }: Pick<DashboardActor, 'userId' | 'verifiedApiKeys'>,
  input: { organization_id: string; api_key_id: string; name?: string; permission?: ApiKeyPermission },
) {
  await requireOwner(database, userId, input.organization_id, messages.onlyOwnersManageKeys);
  const change = input.name !== undefined ? { name: input.name.trim() } : { permission: input.permission! };
  const { numUpdatedRows } = await database.db
    .updateTable('api_keys')
    .set(change)
    .where('id', '=', input.api_key_id)
    .where('organization_id', '=', input.organization_id)
    .executeTakeFirst();
  verifiedApiKeys.clear();
  if (numUpdatedRows === 0n) throw new NotFound('API key not found.');
  return { message: 'API key updated.' };
}

/**
 * How long a verified key is trusted without asking the database again. Every change of keys
 * made by this server (a key deleted, its permission changed, its organization deleted, through
 * the dashboard or the admin API) forgets them all at once, so here a revoked key stops working
 * with the next request; a change made by another server of the installation (PostgreSQL) or
 * another process reaches this one within this time. Only keys found are remembered: a key just
 * added works at once, and an unknown one is looked up every time.
 */
export const VERIFIED_KEY_TTL_MS = 1000;

/** The keys a server verified lately (lookups.ts). */
export const createVerifiedApiKeys = (): Lookups<ApiKeyActor> => lookups<ApiKeyActor>(VERIFIED_KEY_TTL_MS);

/**
 * The organization a bearer API key speaks for (provider API). The lookup of a key verified in
 * the last VERIFIED_KEY_TTL_MS is skipped: it was a large share of a short query's server time.
 */
export async function authenticateApiKey(database: Database, verified: Lookups<ApiKeyActor>, apiKey: string): Promise<ApiKeyActor> {
  const known = verified.get(apiKey);
  if (known) return known;
  const row = await database.db
    .selectFrom('api_keys')
    .select(['id', 'organization_id', 'permission'])
    .where('key_hash', '=', hashApiKey(apiKey))
    .executeTakeFirst();
  if (!row) throw new Unauthorized('Invalid API key.');
  const actor: ApiKeyActor = { organizationId: row.organization_id, apiKeyId: row.id, permission: row.permission };
  verified.set(apiKey, actor);
  return actor;
}
