import { ReceivedModelsUsageCounters } from '@sift/contracts';
import { queryOptions } from '@tanstack/react-query';
import { postUsage } from '@/features/usage/api/post-usage';

export const getModelsUsageCounters = (workingKey: string | null) =>
  postUsage('models stats', workingKey, '/usage/models/counters', {}, ReceivedModelsUsageCounters);

/** The Models summary: loads when the organization changes and each time the Models tab opens. */
export const modelsUsageCountersQuery = (organizationId: string | null, workingKey: string | null) =>
  queryOptions({
    queryKey: ['usage', 'models-counters', organizationId, workingKey],
    queryFn: () => getModelsUsageCounters(workingKey),
    enabled: organizationId !== null,
    retry: false,
    refetchOnMount: 'always',
  });
