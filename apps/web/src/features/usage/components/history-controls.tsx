import { type ReactNode, useId } from 'react';
import { Select } from '@/components/ui/select';
import { hourLabel } from '@/features/usage/usage-format';
import { GRANULARITIES, GRANULARITY_LABELS, type HistoryRange } from '@/features/usage/usage-range';

/** The Minutely hour picker's 24 options, 12am to 11pm (spec §9). */
const HOUR_OPTIONS = Array.from({ length: 24 }, (_, hour) => ({ value: String(hour), label: hourLabel(hour) }));

const field = 'h-9 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:border-slate-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-200';

/** Every control of the row has its label above it, so the row lines up on one baseline. */
export const labelled = 'flex flex-col gap-1 text-xs font-medium text-slate-600';

/**
 * The History range controls (spec §2): the granularity toggle (day, hr, minute), native date
 * pickers (Daily: start and end; Hourly: one date; Minutely: one date and an hour, 12am to 11pm).
 */
export function HistoryControls({ range, onChange, children }: { range: HistoryRange; onChange(range: HistoryRange): void; children?: ReactNode }) {
  const hourId = useId();
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className={labelled}>
        <span aria-hidden>Granularity</span>
        <div role="group" aria-label="Granularity" className="inline-flex h-9 items-stretch rounded-md border border-slate-300 bg-white p-0.5">
          {GRANULARITIES.map((granularity) => (
            <button
              key={granularity}
              type="button"
              aria-pressed={range.granularity === granularity}
              onClick={() => onChange({ ...range, granularity })}
              className="rounded px-3 text-sm font-medium text-slate-600 hover:text-slate-900 aria-pressed:bg-slate-900 aria-pressed:text-white"
            >
              {GRANULARITY_LABELS[granularity]}
            </button>
          ))}
        </div>
      </div>
      {range.granularity === 'Daily' ? (
        <>
          <DateField label="Start date" value={range.startDate} max={range.endDate} onChange={(startDate) => onChange({ ...range, startDate })} />
          <DateField label="End date" value={range.endDate} min={range.startDate} onChange={(endDate) => onChange({ ...range, endDate })} />
        </>
      ) : (
        <DateField label="Date" value={range.date} onChange={(date) => onChange({ ...range, date })} />
      )}
      {range.granularity === 'Minutely' ? (
        <div className={labelled}>
          <label htmlFor={hourId}>Hour</label>
          <Select id={hourId} className="w-28" value={String(range.hour)} onValueChange={(hour) => onChange({ ...range, hour: Number(hour) })} options={HOUR_OPTIONS} />
        </div>
      ) : null}
      {children}
    </div>
  );
}

function DateField({ label, value, min, max, onChange }: { label: string; value: string; min?: string; max?: string; onChange(value: string): void }) {
  return (
    <label className={labelled}>
      {label}
      <input
        type="date"
        className={field}
        value={value}
        min={min}
        max={max}
        required
        // An emptied native date input keeps the previous date: a range always has its days.
        onChange={(event) => event.target.value && onChange(event.target.value)}
      />
    </label>
  );
}
