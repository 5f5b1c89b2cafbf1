/** The Usage screen's messages (spec §8), word for word. */
export const usageMessages = {
  notAuthenticated: 'Not authenticated',
  noApiKey: 'No API key configured for this organization',
  invalidResponse: (what: UsageCall, message: string) => `Invalid ${what} response format: ${message}`,
  fetchFailed: (what: UsageCall, message: string) => `Failed to fetch ${what}: ${message}`,
  historyFallback: 'Failed to fetch usage history',
  loadUsageFailed: 'Failed to load usage data',
  loadModelsFailed: 'Failed to load models data',
} as const;

/** What each usage call fetches, as the messages name it. */
export type UsageCall = 'usage stats' | 'usage history' | 'models stats' | 'models history';
