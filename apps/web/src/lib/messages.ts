/** Spec §8 messages shared by more than one screen. Screen-specific ones live with their feature. */
export const messages = {
  noOrganization:
    'There are no organizations associated with your account. Please create an organization using the drop-down menu at the top. Thank you!',
  organizationLoadFailed: (message: string) =>
    `Could not load ... organization connection. Please check your internet connection or contact support if the problem persists. Error: ${message}`,
  userFetchFailed: (status: number) => `Failed to fetch user: ${status}`,
  organizationFetchFailed: (status: number) => `Failed to fetch organization info: ${status}`,
  onlyOwnersManageKeys: 'Only organization owners can manage API keys.',
} as const;
