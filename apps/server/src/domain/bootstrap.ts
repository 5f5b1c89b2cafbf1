import type { Keyring } from '../auth/keyring.ts';
import type { Database } from '../db/schema.ts';
import { upsertUserByEmail } from './accounts.ts';
import { addApiKey } from './api-keys.ts';
import { getOrganizationInfo, createOrganization } from './organizations.ts';

/**
 * Creates, or reuses, a user, an organization they own by that name, and an API key with every
 * permission: the starting point for scripts and CI.
 */
export async function bootstrap(
  database: Database,
  keyring: Keyring,
  input: { email: string; name: string; organizationName: string },
) {
  const user = await upsertUserByEmail(database, { email: input.email, name: input.name, issuer: 'local', subject: input.email.toLowerCase() });
  const owned = await database.db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select('organizations.id')
    .where('memberships.user_id', '=', user.id)
    .where('memberships.permission', '=', 'OWNER')
    .where('organizations.name', '=', input.organizationName)
    .executeTakeFirst();
  const organizationId = owned?.id ?? (await createOrganization(database, { userId: user.id }, { name: input.organizationName })).id;
  const info = await getOrganizationInfo(database, { keyring, userId: user.id }, { organization_id: organizationId });
  const existing = info.api_keys.find((key) => key.permission === 'all');
  const apiKey =
    existing?.api_key ??
    (await addApiKey(database, { keyring, userId: user.id }, { organization_id: organizationId, name: 'bootstrap', permission: 'all' })).api_key;
  return { userId: user.id, organizationId, apiKey };
}
