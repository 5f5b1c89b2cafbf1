import { Building2 } from 'lucide-react';
import { messages } from '@/lib/messages';

/**
 * What every organization screen shows when the user belongs to none (spec §4, §8): the
 * create-an-organization message, in place of the screen's content. Nothing behind it waits.
 */
export function NoOrganization() {
  return (
    <div role="status" className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Building2 aria-hidden className="size-8 text-slate-400" />
      <p className="max-w-md text-sm text-slate-600">{messages.noOrganization}</p>
    </div>
  );
}
