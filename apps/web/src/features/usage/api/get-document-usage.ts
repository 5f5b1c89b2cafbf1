import { ReceivedDocumentUsageHistory, type UsageRequest } from '@sift/contracts';
import { queryOptions } from '@tanstack/react-query';
import { postUsage } from './post-usage';
import { historyInBuckets, historyKey, type UsageHistoryRequest } from './usage-history-request';

/** Docs, OCR and Indexed by window. */
export const getDocumentUsage = (workingKey: string | null, body: UsageRequest) =>
  postUsage('usage history', workingKey, '/usage/documents', body, ReceivedDocumentUsageHistory);

export const documentUsageQuery = (request: UsageHistoryRequest) =>
  queryOptions({
    queryKey: historyKey('documents', request),
    queryFn: () => historyInBuckets(request, (body) => getDocumentUsage(request.workingKey, body)),
    enabled: request.organizationId !== null,
    retry: false,
  });
