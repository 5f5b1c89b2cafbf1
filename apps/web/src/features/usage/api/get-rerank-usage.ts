import { ReceivedRerankUsageHistory, type UsageRequest } from '@sift/contracts';
import { queryOptions } from '@tanstack/react-query';
import { postUsage } from './post-usage';
import { historyInBuckets, historyKey, type UsageHistoryRequest } from './usage-history-request';

/** Rerank by window (no collection filter: reranker calls belong to no collection). */
export const getRerankUsage = (workingKey: string | null, body: Omit<UsageRequest, 'collection_names'>) =>
  postUsage('models history', workingKey, '/usage/models/reranker', body, ReceivedRerankUsageHistory);

export const rerankUsageQuery = (request: UsageHistoryRequest) =>
  queryOptions({
    queryKey: historyKey('reranker', request),
    queryFn: () => historyInBuckets(request, (body) => getRerankUsage(request.workingKey, body)),
    enabled: request.organizationId !== null,
    retry: false,
  });
