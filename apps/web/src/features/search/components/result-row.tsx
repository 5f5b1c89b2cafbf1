import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

/** A result's score, always with two decimals. */
export function Score({ score }: { score: number }) {
  return (
    <span className="shrink-0 text-xs text-slate-500">
      Score <span className="font-mono font-medium text-slate-800 tabular-nums">{score.toFixed(2)}</span>
    </span>
  );
}

interface ResultRowProps {
  path: string;
  details?: ReactNode;
  score: number;
  /** Expandable rows show this when expanded. */
  content?: string;
  expanded?: boolean;
  onToggle?(): void;
}

/**
 * One result. An expandable row's header is a button (Enter or Space toggles it) that says
 * whether it is expanded; its content shows below.
 */
export function ResultRow({ path, details, score, content, expanded = false, onToggle }: ResultRowProps) {
  const header = (
    <>
      {onToggle ? <ChevronRight aria-hidden className={cn('size-4 shrink-0 text-slate-400 transition-transform', expanded && 'rotate-90')} /> : null}
      {/* On a phone the path takes its own line: the details would leave it a few letters. */}
      <span className="min-w-0 flex-1 truncate font-medium text-slate-900 max-sm:basis-[calc(100%-2rem)]" title={path}>
        {path}
      </span>
      {details}
      <Score score={score} />
    </>
  );
  return (
    <li className="rounded-lg border border-slate-200 bg-white" data-result-path={path}>
      {onToggle ? (
        <button
          type="button"
          aria-expanded={expanded}
          onClick={onToggle}
          className="flex w-full flex-wrap items-center gap-x-3 gap-y-1 rounded-lg px-4 py-3 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-slate-400"
        >
          {header}
        </button>
      ) : (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm">{header}</div>
      )}
      {onToggle && expanded ? (
        <div className="border-t border-slate-100 px-4 py-3">
          <p className="text-sm leading-relaxed whitespace-pre-wrap text-slate-700" data-testid="result-content">
            {content}
          </p>
        </div>
      ) : null}
    </li>
  );
}
