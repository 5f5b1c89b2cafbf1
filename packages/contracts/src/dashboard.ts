import * as z from 'zod';
import {
  ApiKeyPermission,
  Email,
  IsoDatetime,
  NonBlank,
  OrganizationPermission,
  Uuid,
} from './common.ts';
import { TOKEN_MAX_CHARS } from './limits.ts';
import { boundedText } from './text.ts';

/** An opaque token a client sends back (invite JWTs, marketplace tokens). */
const Token = boundedText(TOKEN_MAX_CHARS).min(1);

// Session and organizations: spec §3 entities and §7 "Session and organizations".

export const OrganizationSummary = z.object({
  id: Uuid,
  created_at: IsoDatetime,
  name: z.string(),
  permission: OrganizationPermission,
});
export type OrganizationSummary = z.infer<typeof OrganizationSummary>;

export const GetUserResponse = z.object({
  user: z.object({ id: Uuid, name: z.string(), email: Email }),
  organizations: z.array(OrganizationSummary),
});
export type GetUserResponse = z.infer<typeof GetUserResponse>;

/** POST /api/users/logout: the session the request came with is ended on the server. */
export const LogoutResponse = z.object({ message: z.string() });
/** POST /api/users/end-all-sessions: every session of the user, this one included, is ended. */
export const EndAllSessionsResponse = z.object({ message: z.string(), sessions_ended: z.number().int().min(0) });
export type EndAllSessionsResponse = z.infer<typeof EndAllSessionsResponse>;

export const OrganizationMember = z.object({
  id: Uuid,
  name: z.string(),
  email: Email,
  permission: OrganizationPermission,
});
export type OrganizationMember = z.infer<typeof OrganizationMember>;

export const ApiKey = z.object({
  id: Uuid,
  name: z.string(),
  api_key: z.string(),
  created_at: IsoDatetime,
  permission: ApiKeyPermission,
  created_by: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const InvitedEmail = z.object({ email: Email, permission: OrganizationPermission });
export type InvitedEmail = z.infer<typeof InvitedEmail>;

export const OrganizationDetail = z.object({
  id: Uuid,
  created_at: IsoDatetime,
  name: z.string(),
  users: z.array(OrganizationMember),
  api_keys: z.array(ApiKey),
  invited_emails: z.array(InvitedEmail),
});
export type OrganizationDetail = z.infer<typeof OrganizationDetail>;

export const OrganizationRef = z.object({ organization_id: Uuid });

/** The marketplace flow sends its token in a field named after the marketplace. */
export const AddOrganizationRequest = z.object({
  name: NonBlank,
  aws_marketplace_token: Token.optional(),
  vercel_marketplace_token: Token.optional(),
});
export const UpdateOrganizationRequest = OrganizationRef.extend({ name: NonBlank });

export const InviteUserRequest = OrganizationRef.extend({
  email: z.string().trim().pipe(Email),
  permission: OrganizationPermission.default('MEMBER'),
});
export const InviteUserResponse = z.object({ invite_url: z.url() });

export const UpdateUserRequest = OrganizationRef.extend({ user_id: Uuid, permission: OrganizationPermission });
export const RemoveUserRequest = OrganizationRef.extend({ user_id: Uuid });
export const DeleteInviteRequest = OrganizationRef.extend({ email: z.string().trim().pipe(Email) });
export const AcceptInviteRequest = z.object({ invite_jwt: Token });
export const AcceptInviteResponse = OrganizationSummary;

/** Spec §3: the signed invite token's payload, decoded on the client. */
export const InviteTokenPayload = z.object({
  org_id: Uuid,
  org_name: z.string(),
  from_email: Email,
  token: z.string(),
  exp: z.number(),
});
export type InviteTokenPayload = z.infer<typeof InviteTokenPayload>;

export const AddApiKeyRequest = OrganizationRef.extend({
  name: NonBlank,
  permission: ApiKeyPermission.default('read_only'),
});
export const DeleteApiKeyRequest = OrganizationRef.extend({ api_key_id: Uuid });
export const UpdateApiKeyRequest = OrganizationRef.extend({
  api_key_id: Uuid,
  name: NonBlank.optional(),
  permission: ApiKeyPermission.optional(),
}).refine((body) => (body.name === undefined) !== (body.permission === undefined), {
  message: 'Send either name or permission.',
});
