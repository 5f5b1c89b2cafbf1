/** The spec's words for refusals the server gives (spec §5, §6, §8). Imported, never retyped. */
export const messages = {
  onlyOwnersManageKeys: 'Only organization owners can manage API keys.',
  onlyOwnersAddMembers:
    'Only organization owners can add new members. Please contact an owner to invite new users to this organization.',
  onlyOwnersManageMembers: 'Only organization owners can manage members.',
  onlyOwnersChangeOrganization: 'Only organization owners can rename or delete the organization.',
  ownerOwnPermission: 'You cannot change your own permission.',
  notAMember: 'Organization not found.',
  lastOwnerLeaving: 'The last owner cannot leave the organization. Delete it or make another member an owner first.',
  inviteExpired: 'This invitation is invalid or has expired.',
} as const;
