import type { Generated } from 'kysely';

/** Users, their identities, organizations, memberships, invites and API keys (spec §3). Times are ISO strings. */
export interface AccountsTables {
  users: { id: string; name: string; email: string; created_at: string };
  identities: { issuer: string; subject: string; user_id: string; created_at: string };
  organizations: {
    id: string;
    name: string;
    created_at: string;
    aws_marketplace_token: string | null;
    vercel_marketplace_token: string | null;
    /** Admin API overrides (bytes per minute, bytes per request); null: the defaults. */
    override_bpm_fast: number | null;
    override_bpm_slow: number | null;
    override_max_bytes_per_request: number | null;
    /** Zero data retention, as the admin API sets it (1 or 0). */
    zdr: Generated<number>;
  };
  memberships: { organization_id: string; user_id: string; permission: 'OWNER' | 'MEMBER'; created_at: string };
  invites: {
    organization_id: string;
    email: string;
    permission: 'OWNER' | 'MEMBER';
    token: string;
    invited_by: string;
    created_at: string;
  };
  api_keys: {
    id: string;
    organization_id: string;
    name: string;
    key_hash: string;
    key_ciphertext: string;
    permission: 'all' | 'read_only';
    /** The user id of the member who created it (dashboard), or null (admin API). */
    created_by: string | null;
    /** Who created it, as the admin API was told; null for keys made in the dashboard. */
    created_by_name: string | null;
    created_at: string;
  };
}
