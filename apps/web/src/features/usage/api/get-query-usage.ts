import { ReceivedQueryUsageHistory, type UsageRequest } from '@sift/contracts';
import { queryOptions } from '@tanstack/react-query';
import { postUsage } from './post-usage';
import { historyInBuckets, historyKey, type UsageHistoryRequest } from './usage-history-request';

/** Queries by window. */
export const getQueryUsage = (workingKey: string | null, body: UsageRequest) =>
  postUsage('usage history', workingKey, '/usage/queries', body, ReceivedQueryUsageHistory);

export const queryUsageQuery = (request: UsageHistoryRequest) =>
  queryOptions({
    queryKey: historyKey('queries', request),
    queryFn: () => historyInBuckets(request, (body) => getQueryUsage(request.workingKey, body)),
    enabled: request.organizationId !== null,
    retry: false,
  });
