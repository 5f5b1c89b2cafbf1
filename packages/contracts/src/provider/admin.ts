import * as z from 'zod';
import { ApiKeyPermission, IsoDatetime, NonBlank, Uuid } from '../common.ts';
import { NAME_MAX_CHARS } from '../limits.ts';
import { boundedText } from '../text.ts';

// Provider API "Admin": /admin/* (OpenAPI CreateOrganizationRequest, GetOrganizationResponse,
// UpdateOrganizationRequest, AddAPIKeyRequest, ListAPIKeysResponse, ...). Only the installation's
// admin key (SIFT_ADMIN_KEY) may call them: platforms built on Sift provision organizations and
// their keys here.

/** OpenAPI SubscriptionType: `free` is the dashboard's `none`. */
export const AdminSubscriptionTier = z.enum(['free', 'starter', 'teams', 'enterprise']);
export type AdminSubscriptionTier = z.infer<typeof AdminSubscriptionTier>;

const OrganizationId = z.object({ organization_id: Uuid });

/** 201 when the organization was created, 200 when it existed. Its name is its id until renamed. */
export const AdminCreateOrganizationRequest = OrganizationId;
export const AdminGetOrganizationRequest = OrganizationId;

/** A bytes-per-minute (or per-request) override; 0 removes it (back to the tier's default). */
const Override = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const AdminGetOrganizationResponse = z.object({
  organization_id: Uuid,
  name: z.string(),
  subscription_tier: AdminSubscriptionTier,
  override_bpm_fast: z.number().int().nullable(),
  override_bpm_slow: z.number().int().nullable(),
  override_max_bytes_per_request: z.number().int().nullable(),
  zdr: z.boolean(),
});
export type AdminGetOrganizationResponse = z.infer<typeof AdminGetOrganizationResponse>;

export const AdminUpdateOrganizationRequest = OrganizationId.extend({
  subscription_tier: AdminSubscriptionTier.nullish(),
  override_bpm_fast: Override.nullish(),
  override_bpm_slow: Override.nullish(),
  override_max_bytes_per_request: Override.nullish(),
  zdr: z.boolean().nullish(),
});
export type AdminUpdateOrganizationRequest = z.infer<typeof AdminUpdateOrganizationRequest>;

export const AdminAddApiKeyRequest = OrganizationId.extend({
  name: NonBlank,
  permission: ApiKeyPermission,
  /** Who created it, as the platform names them (shown in the dashboard's "Created by"). */
  created_by: boundedText(NAME_MAX_CHARS).nullish(),
});
export type AdminAddApiKeyRequest = z.infer<typeof AdminAddApiKeyRequest>;
export const AdminAddApiKeyResponse = z.object({ api_key: z.string() });

export const AdminListApiKeysRequest = OrganizationId;
export const AdminApiKeyInfo = z.object({
  id: Uuid,
  created_at: IsoDatetime,
  name: z.string(),
  permission: ApiKeyPermission,
  created_by: z.string().nullable(),
  api_key: z.string(),
});
export const AdminListApiKeysResponse = z.object({ api_keys: z.array(AdminApiKeyInfo) });

export const AdminDeleteApiKeyRequest = OrganizationId.extend({ api_key_id: Uuid });
export type AdminDeleteApiKeyRequest = z.infer<typeof AdminDeleteApiKeyRequest>;

export const AdminUpdateApiKeyRequest = OrganizationId.extend({
  api_key_id: Uuid,
  name: NonBlank.nullish(),
  permission: ApiKeyPermission.nullish(),
});
export type AdminUpdateApiKeyRequest = z.infer<typeof AdminUpdateApiKeyRequest>;
