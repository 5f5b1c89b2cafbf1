import { Building2, Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { requestCreateOrganization } from '@/lib/create-organization-request';
import { messages } from '@/lib/messages';

/**
 * What every organization screen shows when the user belongs to none (spec §4, §8): the
 * create-an-organization message (or the screen's own text), and the button that creates one.
 */
export function NoOrganization({ text = messages.noOrganization }: { text?: string }) {
  return (
    <div role="status" className="flex flex-col items-center gap-3 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Building2 aria-hidden className="size-8 text-slate-400" />
      <p className="max-w-md text-sm text-slate-600">{text}</p>
      <CreateOrganizationButton />
    </div>
  );
}

export function CreateOrganizationButton() {
  return (
    <Button variant="secondary" onClick={requestCreateOrganization}>
      <Plus aria-hidden className="size-4" /> Create Organization
    </Button>
  );
}
