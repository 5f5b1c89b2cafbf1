/** Organization ids are shown with an 'org-' prefix. */
export const displayOrganizationId = (id: string): string => `org-${id}`;

/** The Delete dialog's check: trimmed, a leading 'org-' removed, equal to the id (spec §5). */
export const confirmsOrganizationId = (entered: string, id: string): boolean => entered.trim().replace(/^org-/, '') === id;
