import { useState } from 'react';
import { formatBytes, formatExactBytes } from '@/features/usage/usage-format';

/** A byte size in B..TB; clicking it toggles the exact byte count (spec §9). */
export function ByteSize({ bytes, className }: { bytes: number; className?: string }) {
  const [exact, setExact] = useState(false);
  return (
    <button
      type="button"
      onClick={(event) => {
        event.stopPropagation();
        setExact((value) => !value);
      }}
      title={exact ? 'Show the short size' : 'Show the exact byte count'}
      className={`cursor-pointer underline decoration-dotted decoration-slate-300 underline-offset-2 hover:decoration-slate-500 ${className ?? ''}`}
    >
      {exact ? formatExactBytes(bytes) : formatBytes(bytes)}
    </button>
  );
}
