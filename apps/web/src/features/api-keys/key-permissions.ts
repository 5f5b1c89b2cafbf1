/** An API key's permission (spec §3) and how the dashboard names it. */
export type KeyPermission = 'all' | 'read_only';

export const PERMISSION_LABELS: Record<KeyPermission, string> = { read_only: 'Read Only', all: 'All Permissions' };

/** The choices of a permission picker, Read Only first (the default for new keys). */
export const PERMISSION_OPTIONS = (['read_only', 'all'] as const).map((value) => ({ value, label: PERMISSION_LABELS[value] }));
