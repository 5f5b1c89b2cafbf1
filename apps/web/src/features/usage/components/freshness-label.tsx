import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { USAGE_UPDATED_LABEL_INTERVAL_MS } from '@/lib/constants';
import { updatedLabel } from '../usage-format';

/** 'updated <1 min ago' / 'updated N min(s) ago', ticking every minute, and Refresh (spec §2). */
export function FreshnessLabel({ updatedAt, refreshing, onRefresh }: { updatedAt: number | null; refreshing: boolean; onRefresh(): void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), USAGE_UPDATED_LABEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [updatedAt]);
  return (
    <div className="flex shrink-0 items-center gap-3 text-sm text-slate-500">
      {updatedAt ? <span aria-live="polite">{updatedLabel(updatedAt, Math.max(now, updatedAt))}</span> : null}
      <button
        type="button"
        onClick={onRefresh}
        disabled={refreshing}
        className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-400"
      >
        <RefreshCw aria-hidden className={`size-3.5 ${refreshing ? 'animate-spin' : ''}`} />
        {refreshing ? 'Refreshing...' : 'Refresh'}
      </button>
    </div>
  );
}
