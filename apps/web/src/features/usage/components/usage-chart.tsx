import { useEffect, useRef } from 'react';
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, useActiveTooltipLabel, XAxis, YAxis } from 'recharts';
import { Skeleton } from '@/components/ui/skeleton';
import { USAGE_BYTES_AXIS_MIN, USAGE_CHART_HEIGHT, USAGE_CHART_MIN_WIDTH, USAGE_CHART_SKELETON_WIDTH, USAGE_COUNT_AXIS_MIN } from '@/lib/constants';
import { formatBytes, formatCount, niceScale } from '@/features/usage/usage-format';
import { axisLabel, axisTicks, chartTimeZone, type Granularity, pointIndexAt, windowLabel } from '@/features/usage/usage-range';

export interface UsagePoint {
  window_start: number;
  count: number;
  bytes: number;
}

const BYTES_COLOR = '#eab308';
/** The plot's margins and axis widths: the click position maps to a bar through them. */
const MARGIN = { top: 8, right: 4, bottom: 0, left: 4 };
const COUNT_AXIS_WIDTH = 44;
const BYTES_AXIS_WIDTH = 64;
const COUNT_COLOR = '#334155';

/**
 * One metric over the range (spec §2, §9): the count as bars (or a line in the default grid) on
 * the left axis and the bytes as a yellow line on the right axis; at least 10 and 1000 at the top
 * of each axis; axis labels by granularity; a dark tooltip. Clicking a point drills down.
 */
export function UsageChart({
  title,
  granularity,
  points,
  variant,
  loading,
  onDrillDown,
}: {
  title: string;
  granularity: Granularity;
  points: UsagePoint[];
  variant: 'bars' | 'line';
  loading: boolean;
  onDrillDown?: (windowStart: number) => void;
}) {
  const drillable = onDrillDown !== undefined;
  // The point the keyboard is on: the chart's own accessibility layer moves it with the arrow
  // keys (and shows its tooltip); Enter or Space drills into it, as a click does.
  const activePoint = useRef<number | null>(null);
  return (
    <figure aria-label={title} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <span className="text-sm font-medium text-slate-800">
          {title}
          {drillable ? <span className="sr-only">. Arrow keys move between points; Enter opens one.</span> : null}
        </span>
        <span className="shrink-0 text-xs text-slate-500">Time zone: {chartTimeZone()}</span>
      </figcaption>
      {loading ? (
        <div data-testid="chart-skeleton" className="max-w-full" style={{ height: USAGE_CHART_HEIGHT, width: USAGE_CHART_SKELETON_WIDTH }}>
          <Skeleton className="size-full" />
        </div>
      ) : (
        <div
          data-testid="usage-chart"
          style={{ cursor: drillable ? 'pointer' : 'default' }}
          onKeyDown={(event) => {
            if (!onDrillDown || (event.key !== 'Enter' && event.key !== ' ') || activePoint.current === null) return;
            event.preventDefault();
            onDrillDown(activePoint.current);
          }}
          // The bar under the pointer, from the click's own position: the chart's hover state is
          // empty when no mouse move came first, and must never be read as the first bar.
          onClick={(event) => {
            if (!onDrillDown) return;
            const box = event.currentTarget.getBoundingClientRect();
            const plotLeft = MARGIN.left + COUNT_AXIS_WIDTH;
            const plotWidth = box.width - plotLeft - MARGIN.right - BYTES_AXIS_WIDTH;
            const index = pointIndexAt(event.clientX - box.left - plotLeft, plotWidth, points.length);
            if (index !== null) onDrillDown(points[index]!.window_start);
          }}
        >
          <UsagePlot
            granularity={granularity}
            points={points}
            variant={variant}
            onActivePointChange={(windowStart) => {
              activePoint.current = windowStart;
            }}
          />
        </div>
      )}
    </figure>
  );
}

/** The plot of a chart: the count on the left axis, the bytes on the right, the dark tooltip over both. */
function UsagePlot({
  granularity,
  points,
  variant,
  onActivePointChange,
}: {
  granularity: Granularity;
  points: UsagePoint[];
  variant: 'bars' | 'line';
  onActivePointChange(windowStart: number | null): void;
}) {
  const countScale = niceScale(Math.max(0, ...points.map((p) => p.count)), USAGE_COUNT_AXIS_MIN);
  const bytesScale = niceScale(Math.max(0, ...points.map((p) => p.bytes)), USAGE_BYTES_AXIS_MIN);
  return (
    <ResponsiveContainer width="100%" height={USAGE_CHART_HEIGHT} minWidth={USAGE_CHART_MIN_WIDTH} initialDimension={{ width: USAGE_CHART_MIN_WIDTH, height: USAGE_CHART_HEIGHT }}>
      <ComposedChart data={points} margin={MARGIN}>
        <ActivePointTracker onChange={onActivePointChange} />
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis
          dataKey="window_start"
          ticks={axisTicks(granularity, points.map((p) => p.window_start))}
          interval={0}
          tickFormatter={(value: number) => axisLabel(granularity, value)}
          tick={{ fontSize: 11, fill: '#64748b' }}
          tickLine={false}
          axisLine={{ stroke: '#cbd5e1' }}
        />
        <YAxis
          yAxisId="count"
          domain={[0, countScale.max]}
          ticks={countScale.ticks}
          allowDecimals={false}
          tickFormatter={(value: number) => formatCount(value)}
          tick={{ fontSize: 11, fill: '#64748b' }}
          tickLine={false}
          axisLine={false}
          width={COUNT_AXIS_WIDTH}
        />
        <YAxis
          yAxisId="bytes"
          orientation="right"
          domain={[0, bytesScale.max]}
          ticks={bytesScale.ticks}
          tickFormatter={(value: number) => formatBytes(value)}
          tick={{ fontSize: 11, fill: '#a16207' }}
          tickLine={false}
          axisLine={false}
          width={BYTES_AXIS_WIDTH}
        />
        <Tooltip content={({ active, payload }) => <DarkTooltip active={active} payload={payload as DarkTooltipPayload} granularity={granularity} />} cursor={{ fill: 'rgba(148, 163, 184, 0.15)' }} />
        {/* Bars under the yellow bytes line; in the line view the count line is drawn over it. */}
        {variant === 'bars' ? <Bar yAxisId="count" dataKey="count" name="Count" fill={COUNT_COLOR} radius={[2, 2, 0, 0]} isAnimationActive={false} /> : null}
        <Line yAxisId="bytes" dataKey="bytes" name="Bytes" stroke={BYTES_COLOR} strokeWidth={2} dot={false} isAnimationActive={false} />
        {variant === 'line' ? <Line yAxisId="count" dataKey="count" name="Count" stroke={COUNT_COLOR} strokeWidth={2} dot={false} isAnimationActive={false} /> : null}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

/** Reports the window of the point whose tooltip shows (by pointer or arrow keys), null for none. */
function ActivePointTracker({ onChange }: { onChange(windowStart: number | null): void }) {
  const label = useActiveTooltipLabel();
  useEffect(() => {
    onChange(label === undefined || label === null || label === '' ? null : Number(label));
  }, [label, onChange]);
  return null;
}

type DarkTooltipPayload = readonly { payload?: unknown }[] | undefined;

function DarkTooltip({ active, payload, granularity }: { active?: boolean; payload: DarkTooltipPayload; granularity: Granularity }) {
  const point = payload?.[0]?.payload as UsagePoint | undefined;
  if (!active || !point) return null;
  return (
    <div role="tooltip" className="rounded-md bg-slate-900 px-3 py-2 text-xs text-white shadow-lg">
      <div className="font-medium">{windowLabel(granularity, point.window_start)}</div>
      <div className="mt-1 flex items-center gap-2">
        <span className="inline-block size-2 rounded-sm" style={{ background: '#94a3b8' }} />
        Count: {point.count.toLocaleString('en-US')}
      </div>
      <div className="flex items-center gap-2">
        <span className="inline-block size-2 rounded-sm" style={{ background: BYTES_COLOR }} />
        Bytes: {formatBytes(point.bytes)}
      </div>
    </div>
  );
}
