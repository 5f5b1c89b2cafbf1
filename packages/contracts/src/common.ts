import * as z from 'zod';
import { EMAIL_MAX_CHARS, NAME_MAX_CHARS } from './limits.ts';
import { personName } from './text.ts';

/** Every refused call answers with this body (provider validation errors carry a list instead). */
export const ErrorBody = z.object({ detail: z.unknown() });

export const Uuid = z.uuid();
export const IsoDatetime = z.iso.datetime({ offset: true });
export const Email = z.email().max(EMAIL_MAX_CHARS);

/** Trimmed, non-empty names: organization names, API key names (at most NAME_MAX_CHARS). */
export const NonBlank = personName(NAME_MAX_CHARS);

export const OrganizationPermission = z.enum(['OWNER', 'MEMBER']);
export type OrganizationPermission = z.infer<typeof OrganizationPermission>;

export const ApiKeyPermission = z.enum(['all', 'read_only']);
export type ApiKeyPermission = z.infer<typeof ApiKeyPermission>;

export const EmptyBody = z.object({}).loose().nullish();
export const Ok = z.object({ message: z.string() });
