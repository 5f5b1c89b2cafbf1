import { ChevronDown, Plus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { DropdownContent, DropdownItem, DropdownMenu, DropdownSeparator, DropdownTrigger } from '@/components/ui/dropdown-menu';
import { CreateOrganizationDialog } from '@/features/organization/components/create-organization-dialog';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { useServerInfo } from '@/lib/server-info';

export function Header() {
  const { user, organizations, logout } = useSession();
  const { organizationId, selectOrganization } = useCurrentOrganization();
  const { mode } = useServerInfo();
  const [creating, setCreating] = useState(false);
  const selected = organizations.find((o) => o.id === organizationId);

  return (
    <header className="flex h-14 shrink-0 items-center justify-between gap-4 border-b border-slate-200 bg-white px-6">
      <DropdownMenu>
        <DropdownTrigger className="inline-flex max-w-xs items-center gap-2 rounded-md border border-slate-200 px-3 py-1.5 text-sm font-medium hover:bg-slate-50" aria-label="Organization">
          <span className="truncate">{selected?.name ?? 'Select Organization'}</span>
          <ChevronDown className="size-4 text-slate-500" />
        </DropdownTrigger>
        <DropdownContent>
          {organizations.length === 0 ? (
            <div className="px-3 py-2 text-sm text-slate-500">No organizations available</div>
          ) : (
            organizations.map((organization) => (
              <DropdownItem key={organization.id} onSelect={() => selectOrganization(organization.id)} className={organization.id === organizationId ? 'bg-slate-50' : undefined}>
                <span className="flex-1 truncate">{organization.name}</span>
                <Badge tone={organization.permission === 'OWNER' ? 'purple' : 'gray'}>{organization.permission}</Badge>
              </DropdownItem>
            ))
          )}
          <DropdownSeparator />
          <DropdownItem onSelect={() => setCreating(true)}>
            <Plus className="size-4" /> Add Organization
          </DropdownItem>
        </DropdownContent>
      </DropdownMenu>

      <div className="flex items-center gap-3">
        {mode === 'local' ? <Badge tone="yellow">Local sign-in mode</Badge> : null}
        <DropdownMenu>
          <DropdownTrigger aria-label="Account menu" className="grid size-9 place-items-center rounded-full bg-slate-900 text-sm font-semibold text-white uppercase">
            {user?.name.charAt(0) ?? ''}
          </DropdownTrigger>
          <DropdownContent align="end" className="min-w-40">
            <div className="px-3 py-2 text-xs text-slate-500">{user?.email}</div>
            <DropdownItem onSelect={logout}>Log Out</DropdownItem>
          </DropdownContent>
        </DropdownMenu>
      </div>
      <CreateOrganizationDialog open={creating} onClose={() => setCreating(false)} />
    </header>
  );
}
