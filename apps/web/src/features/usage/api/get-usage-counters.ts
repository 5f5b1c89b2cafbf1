import { ReceivedUsageCounters } from '@sift/contracts';
import { queryOptions } from '@tanstack/react-query';
import { postUsage } from '@/features/usage/api/post-usage';

export const getUsageCounters = (workingKey: string | null) => postUsage('usage stats', workingKey, '/usage/counters', {}, ReceivedUsageCounters);

/** The Search API summary: loads when the organization changes. */
export const usageCountersQuery = (organizationId: string | null, workingKey: string | null) =>
  queryOptions({
    queryKey: ['usage', 'counters', organizationId, workingKey],
    queryFn: () => getUsageCounters(workingKey),
    enabled: organizationId !== null,
    retry: false,
  });
