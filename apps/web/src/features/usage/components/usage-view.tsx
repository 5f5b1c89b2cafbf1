import { DOCUMENT_USAGE_METRICS, QUERY_USAGE_METRICS, RERANK_USAGE_METRICS, type UsageAmount, type UsageMetricKey } from '@sift/contracts';
import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { NoOrganization } from '@/components/no-organization';
import { Page } from '@/components/ui/page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useCurrentOrganization } from '@/lib/current-organization';
import { documentUsageQuery } from '../api/get-document-usage';
import { modelsUsageCountersQuery } from '../api/get-models-usage-counters';
import { queryUsageQuery } from '../api/get-query-usage';
import { rerankUsageQuery } from '../api/get-rerank-usage';
import { usageCountersQuery } from '../api/get-usage-counters';
import { CollectionPicker } from '@/components/collection-picker';
import { allCollections, type CollectionSelection, collectionNamesOf } from '@/components/collection-selection';
import { usageMessages } from '../usage-messages';
import { defaultRange, type HistoryRange } from '../usage-range';
import type { UsagePoint } from './usage-chart';
import { labelled } from './history-controls';
import { type HistoryData, UsageHistory } from './usage-history';
import { UsageSummaryCards } from './usage-summary-cards';

type Tab = 'models' | 'search-api';
const SEARCH_API_METRICS: UsageMetricKey[] = [...DOCUMENT_USAGE_METRICS, ...QUERY_USAGE_METRICS];
const MODELS_METRICS: UsageMetricKey[] = [...RERANK_USAGE_METRICS];

type LoadStatus = 'idle' | 'loading' | 'success' | 'error';
const statusOf = (organizationId: string | null, ...queries: UseQueryResult<unknown>[]): LoadStatus => {
  if (!organizationId) return 'idle';
  if (queries.some((query) => query.isError)) return 'error';
  if (queries.every((query) => query.isSuccess)) return 'success';
  return 'loading';
};

/** Summary failures are only logged (spec §8), once per failure. */
function useLoggedFailure(error: Error | null) {
  useEffect(() => {
    if (error) console.error(error.message);
  }, [error]);
}

interface History {
  history: { window_start: number; stats: Partial<Record<UsageMetricKey, UsageAmount>> }[];
  totals: Partial<Record<UsageMetricKey, UsageAmount>>;
}

/** Chart points and totals of the given histories, per metric. */
function historyData(histories: (History | undefined)[], updatedAt: number): HistoryData | undefined {
  if (histories.some((history) => !history)) return undefined;
  const points: HistoryData['points'] = {};
  const totals: HistoryData['totals'] = {};
  for (const history of histories as History[]) {
    for (const [metric, amount] of Object.entries(history.totals) as [UsageMetricKey, UsageAmount][]) {
      totals[metric] = amount;
      points[metric] = history.history.map(
        (entry): UsagePoint => ({ window_start: entry.window_start, count: entry.stats[metric]?.count ?? 0, bytes: entry.stats[metric]?.bytes ?? 0 }),
      );
    }
  }
  return { points, totals, updatedAt };
}

/**
 * The Usage screen (spec §2 "Usage"): the Models tab (default) and the Search API tab, each with
 * its summary and its History. The range is shared by both tabs; the collection selection applies
 * to the Search API histories.
 */
export function UsageView() {
  const { organizationId, workingKey, noOrganization } = useCurrentOrganization();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('models');
  const [range, setRange] = useState<HistoryRange>(() => defaultRange());
  const [collections, setCollections] = useState<CollectionSelection>(allCollections);
  const [refreshing, setRefreshing] = useState(false);
  const counters = useQuery(usageCountersQuery(organizationId, workingKey));
  useLoggedFailure(counters.error);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      // Every usage query on screen: the summary (and the models summary on Models) and the histories.
      await queryClient.refetchQueries({ queryKey: ['usage'], type: 'active' });
    } catch (error) {
      console.error(error);
    } finally {
      setRefreshing(false);
    }
  }, [queryClient]);

  if (noOrganization) {
    return (
      <Page title="Usage">
        <NoOrganization />
      </Page>
    );
  }
  const shared = { range, onRangeChange: setRange, refreshing, onRefresh: refresh };

  return (
    <Page title="Usage">
      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)}>
        <TabsList label="Usage">
          <TabsTrigger value="models">Models</TabsTrigger>
          <TabsTrigger value="search-api">Search API</TabsTrigger>
        </TabsList>
        <TabsContent value="models" className="flex flex-col gap-6 pt-6">
          <ModelsTab organizationId={organizationId} workingKey={workingKey} {...shared} />
        </TabsContent>
        <TabsContent value="search-api" className="flex flex-col gap-6 pt-6">
          <UsageSummaryCards metrics={SEARCH_API_METRICS} counters={counters.data} status={statusOf(organizationId, counters)} />
          <SearchApiHistory
            organizationId={organizationId}
            workingKey={workingKey}
            collections={collections}
            onCollectionsChange={setCollections}
            {...shared}
          />
        </TabsContent>
      </Tabs>
    </Page>
  );
}

interface TabProps {
  organizationId: string | null;
  workingKey: string | null;
  range: HistoryRange;
  onRangeChange(range: HistoryRange): void;
  refreshing: boolean;
  onRefresh(): void;
}

function SearchApiHistory({
  organizationId,
  workingKey,
  collections,
  onCollectionsChange,
  ...shared
}: TabProps & { collections: CollectionSelection; onCollectionsChange(selection: CollectionSelection): void }) {
  // With All, the list is left out of the request; otherwise it is sent, empty when none is chosen.
  const request = { organizationId, workingKey, range: shared.range, collectionNames: collectionNamesOf(collections) };
  const documents = useQuery(documentUsageQuery(request));
  const queries = useQuery(queryUsageQuery(request));
  const status = statusOf(organizationId, documents, queries);
  const updatedAt = Math.min(documents.dataUpdatedAt, queries.dataUpdatedAt);
  return (
    <UsageHistory
      description="Documents added, pages read through OCR, documents indexed and queries run, with their sizes, over the selected range."
      metrics={SEARCH_API_METRICS}
      status={status}
      error={(documents.error ?? queries.error)?.message ?? null}
      failureTitle={usageMessages.loadUsageFailed}
      data={status === 'success' ? historyData([documents.data, queries.data], updatedAt) : undefined}
      controls={
        <div className={labelled}>
          <span aria-hidden>Collections</span>
          <CollectionPicker selection={collections} onSelectionChange={onCollectionsChange} />
        </div>
      }
      {...shared}
    />
  );
}

function ModelsTab({ organizationId, workingKey, ...shared }: TabProps) {
  const counters = useQuery(modelsUsageCountersQuery(organizationId, workingKey));
  useLoggedFailure(counters.error);
  const rerank = useQuery(rerankUsageQuery({ organizationId, workingKey, range: shared.range }));
  const status = statusOf(organizationId, rerank);
  return (
    <>
      <UsageSummaryCards metrics={MODELS_METRICS} counters={counters.data} status={statusOf(organizationId, counters)} />
      <UsageHistory
        description="Reranker calls and the bytes sent to the reranker over the selected range."
        metrics={MODELS_METRICS}
        status={status}
        error={rerank.error?.message ?? null}
        failureTitle={usageMessages.loadModelsFailed}
        data={status === 'success' ? historyData([rerank.data], rerank.dataUpdatedAt) : undefined}
        {...shared}
      />
    </>
  );
}
