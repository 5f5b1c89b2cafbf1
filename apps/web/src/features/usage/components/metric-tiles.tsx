import { USAGE_METRIC_NAMES, type UsageAmount, type UsageMetricKey } from '@sift/contracts';
import { formatCount } from '@/features/usage/usage-format';
import { ByteSize } from '@/features/usage/components/byte-size';

/**
 * One tile per metric with its count and size over the selected range ('-' until loaded).
 * Clicking a tile toggles it as a chart filter (spec §2); UsageHistory shows 'Show all'.
 */
export function MetricTiles({
  metrics,
  totals,
  filter,
  onFilterChange,
}: {
  metrics: UsageMetricKey[];
  totals: Partial<Record<UsageMetricKey, UsageAmount>> | undefined;
  filter: UsageMetricKey[];
  onFilterChange(filter: UsageMetricKey[]): void;
}) {
  const toggle = (metric: UsageMetricKey) => onFilterChange(filter.includes(metric) ? filter.filter((m) => m !== metric) : [...filter, metric]);
  return (
    // The tiles share the row equally ('Show all' sits in the controls row, so nothing moves).
    // Four in a row from 640 px, two by two below.
    <div className={`grid items-stretch gap-3 ${metrics.length > 1 ? 'grid-cols-2 sm:grid-cols-4' : 'grid-cols-1 sm:max-w-xs'}`}>
      {metrics.map((metric) => {
        const amount = totals?.[metric];
        const selected = filter.includes(metric);
        return (
          // The filter toggle and the byte-size toggle side by side, never one inside the other:
          // a button inside a button is unreachable by keyboard and misread by screen readers.
          <div
            key={metric}
            className={`flex flex-col rounded-lg border transition-colors ${selected ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-200 bg-white text-slate-900 hover:border-slate-400'}`}
          >
            <button
              type="button"
              aria-pressed={selected}
              onClick={() => toggle(metric)}
              className="flex flex-1 cursor-pointer flex-col rounded-lg px-4 pt-3 text-left focus-visible:outline-2 focus-visible:outline-slate-400"
            >
              <span className={`text-xs font-medium ${selected ? 'text-slate-200' : 'text-slate-600'}`}>{USAGE_METRIC_NAMES[metric]}</span>{' '}
              <span data-testid="tile-count" className="mt-1 text-lg font-semibold">
                {amount ? formatCount(amount.count) : '-'}
              </span>
            </button>
            <div className={`px-4 pb-3 text-xs ${selected ? 'text-slate-200' : 'text-slate-600'}`}>{amount ? <ByteSize bytes={amount.bytes} /> : '-'}</div>
          </div>
        );
      })}
    </div>
  );
}
