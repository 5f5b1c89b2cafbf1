import { Check, Copy, Eye, EyeOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { IconButton } from '@/components/ui/button';
import { COPY_CONFIRMATION_MS } from '@/lib/constants';
import { maskApiKey } from '@/features/api-keys/mask-api-key';

/** A key in its row: masked until shown, with a copy button that confirms for a moment. */
export function ApiKeyValue({ value }: { value: string }) {
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (error) {
      console.error('copy failed', error);
    }
  };

  return (
    <div className="relative flex min-w-0 items-center gap-1">
      {shown ? (
        <code className="min-w-0 rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all text-slate-800">{value}</code>
      ) : (
        <MaskedKey masked={maskApiKey(value)} />
      )}
      <IconButton label={shown ? 'Hide API key' : 'Show API key'} onClick={() => setShown(!shown)}>
        {shown ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
      </IconButton>
      <IconButton label="Copy API key" onClick={copy}>
        {copied ? <Check className="size-4 text-green-600" /> : <Copy className="size-4" />}
      </IconButton>
      {/* Over the key, not beside it: the column keeps its width. */}
      {copied ? (
        <span role="status" className="absolute top-1/2 left-0 -translate-y-1/2 rounded bg-green-50 px-2 py-1 text-xs font-medium text-green-700 ring-1 ring-green-200">
          Copied!
        </span>
      ) : null}
    </div>
  );
}

/** The masked key on one line: its first and last 4 always show, the stars between give way to the column. */
function MaskedKey({ masked }: { masked: string }) {
  const [head, middle, tail] = masked.length > 8 ? [masked.slice(0, 4), masked.slice(4, -4), masked.slice(-4)] : ['', masked, ''];
  return (
    <code className="flex min-w-0 rounded bg-slate-100 px-2 py-1 font-mono text-xs whitespace-nowrap text-slate-800">
      <span>{head}</span>
      <span className="min-w-0 overflow-hidden">{middle}</span>
      <span>{tail}</span>
    </code>
  );
}
