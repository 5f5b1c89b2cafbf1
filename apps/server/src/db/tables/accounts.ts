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
    created_by: string | null;
    created_at: string;
  };
}
