/**
 * Which organization is selected (spec §4): the one requested, else the one remembered in local
 * storage, else the first; null when the user has none. A requested or remembered id the user no
 * longer belongs to is skipped.
 */
export function selectOrganization(
  organizationIds: string[],
  requested: string | null,
  remembered: string | null,
): string | null {
  for (const candidate of [requested, remembered]) {
    if (candidate && organizationIds.includes(candidate)) return candidate;
  }
  return organizationIds[0] ?? null;
}
