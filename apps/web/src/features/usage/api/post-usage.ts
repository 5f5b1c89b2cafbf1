import type { z } from 'zod';
import { createProviderClient } from '@/lib/provider-client';
import { providerErrorMessage } from '@/lib/provider-errors';
import { getSessionToken } from '@/lib/session';
import { type UsageCall, usageMessages } from '@/features/usage/usage-messages';

/**
 * One usage call through the official SDK's generic `post` (so it shares the client's timeout,
 * retries and errors), authorised with the organization's working key, its answer checked on
 * receipt (spec §5). Failures carry the messages of spec §8.
 */
export async function postUsage<Schema extends z.ZodType>(
  what: UsageCall,
  workingKey: string | null,
  path: string,
  body: object,
  schema: Schema,
): Promise<z.output<Schema>> {
  if (!getSessionToken()) throw new Error(usageMessages.notAuthenticated);
  if (!workingKey) throw new Error(usageMessages.noApiKey);
  let answer: unknown;
  try {
    answer = await createProviderClient(workingKey).post(path, { body });
  } catch (error) {
    const message = providerErrorMessage(error);
    throw new Error(message ? usageMessages.fetchFailed(what, message) : what === 'usage history' ? usageMessages.historyFallback : usageMessages.fetchFailed(what, 'Unknown error'));
  }
  const parsed = schema.safeParse(answer);
  if (!parsed.success) {
    const message = parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
    throw new Error(usageMessages.invalidResponse(what, message));
  }
  return parsed.data;
}
