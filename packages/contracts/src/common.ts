import * as z from 'zod';

/** Every refused call answers with this body (provider validation errors carry a list instead). */
export const ErrorBody = z.object({ detail: z.unknown() });

export const Uuid = z.uuid();
export const IsoDatetime = z.iso.datetime({ offset: true });
export const Email = z.email();

/** Trimmed, non-empty text: organization names, API key names. */
export const NonBlank = z.string().trim().min(1, 'must not be blank');

export const OrganizationPermission = z.enum(['OWNER', 'MEMBER']);
export type OrganizationPermission = z.infer<typeof OrganizationPermission>;

export const ApiKeyPermission = z.enum(['all', 'read_only']);
export type ApiKeyPermission = z.infer<typeof ApiKeyPermission>;

export const EmptyBody = z.object({}).loose().nullish();
export const Ok = z.object({ message: z.string() });
