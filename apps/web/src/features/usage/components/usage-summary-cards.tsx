import { USAGE_METRIC_NAMES, type UsageAmount, type UsageMetricKey } from '@sift/contracts';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount } from '@/features/usage/usage-format';
import { ByteSize } from '@/features/usage/components/byte-size';

export interface SummaryCounters {
  all_time: Partial<Record<UsageMetricKey, UsageAmount>>;
  billing_cycle: Partial<Record<UsageMetricKey, UsageAmount>>;
}

/**
 * Summary cards (spec §2): per metric, the all-time and the billing-cycle count and size; skeleton
 * cards while loading, zeros when there is no data, '-' when the summary could not be loaded (its
 * failure is only logged, spec §8).
 */
export function UsageSummaryCards({ metrics, counters, status }: { metrics: UsageMetricKey[]; counters: SummaryCounters | undefined; status: 'loading' | 'success' | 'error' | 'idle' }) {
  const columns = metrics.length === 1 ? 'grid-cols-1 sm:max-w-sm' : 'grid-cols-2 lg:grid-cols-4';
  if (status === 'loading') {
    return (
      <div className={`grid gap-4 ${columns}`} aria-busy="true" aria-label="Loading usage summary">
        {metrics.map((metric) => (
          <div key={metric} data-testid="summary-skeleton" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <Skeleton className="h-4 w-16" />
            <Skeleton className="mt-4 h-6 w-24" />
            <Skeleton className="mt-3 h-4 w-32" />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className={`grid gap-4 ${columns}`}>
      {metrics.map((metric) => (
        <section key={metric} aria-label={`${USAGE_METRIC_NAMES[metric]} summary`} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <h3 className="text-sm font-medium text-slate-600">{USAGE_METRIC_NAMES[metric]}</h3>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
            <Period label="All time" amount={counters?.all_time[metric] ?? (status === 'error' ? undefined : { count: 0, bytes: 0 })} />
            <Period label="Billing cycle" amount={counters?.billing_cycle[metric] ?? (status === 'error' ? undefined : { count: 0, bytes: 0 })} />
          </dl>
        </section>
      ))}
    </div>
  );
}

function Period({ label, amount }: { label: string; amount: UsageAmount | undefined }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-1 text-xl font-semibold text-slate-900">{amount ? formatCount(amount.count) : '-'}</dd>
      <dd className="text-xs text-slate-600">{amount ? <ByteSize bytes={amount.bytes} /> : '-'}</dd>
    </div>
  );
}
