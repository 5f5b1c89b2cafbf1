import { DashboardApiError } from '@/lib/dashboard-api';

/** Billing's messages of spec §8. */
export const billingMessages = {
  /** alert 'Failed to subscribe: {detail or message}'; fallback 'Error: {status} - {statusText}'. */
  subscribeFailed(error: unknown): string {
    if (error instanceof DashboardApiError) return `Failed to subscribe: ${error.detail ?? `Error: ${error.status} - ${error.statusText}`}`;
    if (error instanceof Error && error.message) return `Failed to subscribe: ${error.message}`;
    return 'Failed to subscribe: Unknown error';
  },
  /** Cancel failures are only logged; fallback 'Failed to cancel plan'. */
  cancelFailed(error: unknown): string {
    if (error instanceof DashboardApiError && error.detail) return error.detail;
    if (error instanceof Error && error.message) return error.message;
    return 'Failed to cancel plan';
  },
  thanks: 'Thanks for subscribing!',
  sorry: 'Sorry to see you go!',
  noInvoices: 'No results.',
} as const;
