import type { FileStore } from '../file-store.ts';
import type { Keyring } from '../auth/keyring.ts';
import type { BillingProvider } from '../billing/provider.ts';
import type { Lookups } from './lookups.ts';
import type { ApiKeyActor } from './provider-actor.ts';
import type { CollectionRef } from './usage-events.ts';

/**
 * Who calls a dashboard service, and what the service needs on their behalf: the signed-in
 * user, the keyring that seals API keys and invites, the installation's billing provider, and
 * the dashboard's address for the links a call hands out (invites, checkout). Every dashboard
 * route builds it the same way (http/routes/dashboard-actor.ts) and every dashboard service takes
 * `(database, actor, input)`, with the part of the actor it needs.
 */
export interface DashboardActor {
  userId: string;
  keyring: Keyring;
  billing: BillingProvider;
  dashboardUrl: string;
  /** Where raw files live: deleting an organization removes its files. */
  files: FileStore;
  /** Keys and collections the server looked up lately: forgotten when they change. */
  verifiedApiKeys: Lookups<ApiKeyActor>;
  foundCollections: Lookups<CollectionRef>;
}
