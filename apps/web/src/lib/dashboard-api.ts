import type { z } from 'zod';
import { getSessionToken } from '@/lib/session';

/** A refused dashboard call: the HTTP status and the server's `detail`, when it gave one. */
export class DashboardApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly detail: string | undefined,
  ) {
    super(detail ?? `${status} ${statusText}`.trim());
  }
}

export class InvalidResponseError extends Error {}

const detailOf = (body: unknown): string | undefined => {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((item) => (item as { msg?: string }).msg ?? String(item)).join('; ');
  return undefined;
};

/**
 * POSTs to the dashboard API with the session token and checks the answer against its contract
 * (spec §5): a mismatch is an 'invalid response format' error, never silently used.
 */
export async function postDashboard<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.infer<S>> {
  const token = getSessionToken();
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new DashboardApiError(response.status, response.statusText, detailOf(payload));
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new InvalidResponseError(`invalid response format: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The message to show for a failure: the server's detail if present, else a fallback (spec §8). */
export function failureMessage(error: unknown, fallback: string, unknown = 'Unknown error'): string {
  if (error instanceof DashboardApiError) return error.detail ?? fallback;
  if (error instanceof Error) return error.message || fallback;
  return unknown;
}
