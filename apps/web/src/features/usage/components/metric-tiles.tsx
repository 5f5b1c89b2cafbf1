import { USAGE_METRIC_NAMES, type UsageAmount, type UsageMetricKey } from '@sift/contracts';
import { formatCount } from '../usage-format';
import { ByteSize } from './byte-size';

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
    <div className="grid items-stretch gap-3" style={{ gridTemplateColumns: `repeat(${metrics.length}, minmax(0, 1fr))` }}>
      {metrics.map((metric) => {
        const amount = totals?.[metric];
        const selected = filter.includes(metric);
        return (
          <div
            key={metric}
            role="button"
            tabIndex={0}
            aria-pressed={selected}
            aria-label={`${USAGE_METRIC_NAMES[metric]} tile`}
            onClick={() => toggle(metric)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                toggle(metric);
              }
            }}
            className={`cursor-pointer rounded-lg border px-4 py-3 text-left transition-colors focus-visible:outline-2 focus-visible:outline-slate-400 ${
              selected ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-200 bg-white text-slate-900 hover:border-slate-400'
            }`}
          >
            <div className={`text-xs font-medium ${selected ? 'text-slate-200' : 'text-slate-500'}`}>{USAGE_METRIC_NAMES[metric]}</div>
            <div data-testid="tile-count" className="mt-1 text-lg font-semibold">{amount ? formatCount(amount.count) : '-'}</div>
            <div className={`text-xs ${selected ? 'text-slate-200' : 'text-slate-600'}`}>{amount ? <ByteSize bytes={amount.bytes} /> : '-'}</div>
          </div>
        );
      })}
    </div>
  );
}
