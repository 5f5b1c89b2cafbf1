import { USAGE_METRIC_NAMES, type UsageAmount, type UsageMetricKey } from '@sift/contracts';
import { type ReactNode, useState } from 'react';
import { drillDown, type HistoryRange, includesNow, rangeSummary } from '@/features/usage/usage-range';
import { FreshnessLabel } from '@/features/usage/components/freshness-label';
import { HistoryControls } from '@/features/usage/components/history-controls';
import { MetricTiles } from '@/features/usage/components/metric-tiles';
import { UsageChart, type UsagePoint } from '@/features/usage/components/usage-chart';

export interface HistoryData {
  points: Partial<Record<UsageMetricKey, UsagePoint[]>>;
  totals: Partial<Record<UsageMetricKey, UsageAmount>>;
  /** When the histories were last loaded (ms). */
  updatedAt: number;
}

/**
 * The History section of a Usage tab (spec §2): description, range controls, metric tiles that
 * filter the charts, and the charts (a 2-column grid of line charts by default; bars with the
 * bytes line for the tiles picked). The freshness label and Refresh show when the range holds now.
 */
export function UsageHistory({
  description,
  metrics,
  range,
  onRangeChange,
  controls,
  status,
  error,
  failureTitle,
  data,
  refreshing,
  onRefresh,
}: {
  description: string;
  metrics: UsageMetricKey[];
  range: HistoryRange;
  onRangeChange(range: HistoryRange): void;
  controls?: ReactNode;
  status: 'idle' | 'loading' | 'success' | 'error';
  error: string | null;
  failureTitle: string;
  data: HistoryData | undefined;
  refreshing: boolean;
  onRefresh(): void;
}) {
  const [filter, setFilter] = useState<UsageMetricKey[]>([]);
  const shown = filter.length ? metrics.filter((metric) => filter.includes(metric)) : metrics;
  const single = metrics.length === 1;
  const variant = single || filter.length > 0 ? 'bars' : 'line';
  const summary = rangeSummary(range);
  const canDrill = range.granularity !== 'Minutely';

  return (
    <section aria-labelledby="usage-history-title" className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <h2 id="usage-history-title" className="text-base font-semibold text-slate-900">
            History
          </h2>
          <p className="mt-1 text-sm text-slate-600">{description}</p>
        </div>
        {includesNow(range) && status !== 'idle' ? <FreshnessLabel updatedAt={data?.updatedAt ?? null} refreshing={refreshing} onRefresh={onRefresh} /> : null}
      </header>
      <HistoryControls range={range} onChange={onRangeChange}>
        {controls}
        {filter.length > 0 ? (
          <button type="button" onClick={() => setFilter([])} className="ml-auto h-9 rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100">
            Show all
          </button>
        ) : null}
      </HistoryControls>
      <MetricTiles metrics={metrics} totals={status === 'success' ? data?.totals : undefined} filter={filter} onFilterChange={setFilter} />
      {status === 'error' ? (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-medium">{failureTitle}</p>
          <p className="mt-1">{error}</p>
        </div>
      ) : (
        <div className={`grid gap-4 ${shown.length > 1 ? 'lg:grid-cols-2' : 'grid-cols-1'}`}>
          {shown.map((metric) => (
            <UsageChart
              key={metric}
              title={`${USAGE_METRIC_NAMES[metric]} · ${summary}`}
              granularity={range.granularity}
              points={data?.points[metric] ?? []}
              variant={variant}
              loading={status !== 'success'}
              onDrillDown={canDrill ? (windowStart) => onRangeChange(drillDown(range, windowStart) ?? range) : undefined}
            />
          ))}
        </div>
      )}
    </section>
  );
}
