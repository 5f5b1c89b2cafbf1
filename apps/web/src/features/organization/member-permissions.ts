/** A member's permission in an organization (spec §6) and the choices of its picker. */
export type MemberPermission = 'OWNER' | 'MEMBER';

export const MEMBER_PERMISSION_OPTIONS = [
  { value: 'MEMBER', label: 'MEMBER' },
  { value: 'OWNER', label: 'OWNER' },
] as const satisfies readonly { value: MemberPermission; label: string }[];
