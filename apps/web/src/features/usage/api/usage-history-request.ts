import type { UsageRequest } from '@sift/contracts';

/** The body of a history call and what its query is keyed on (spec §4: reload on each change). */
export interface UsageHistoryRequest {
  organizationId: string | null;
  workingKey: string | null;
  body: UsageRequest;
}

export const historyKey = (name: string, { organizationId, workingKey, body }: UsageHistoryRequest) =>
  ['usage', name, organizationId, workingKey, body.start_time, body.end_time, body.aggregation_window, body.collection_names ?? null] as const;
