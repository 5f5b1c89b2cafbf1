import { ChevronDown } from 'lucide-react';
import { lazy, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { LoadOnFirstUse } from '@/components/ui/load-on-first-use';
import { CreateOrganizationDialog } from '@/features/organization/components/create-organization-dialog';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { useServerInfo } from '@/lib/server-info';

const OrganizationMenu = lazy(() => import('@/app/shell/organization-menu'));
const AccountMenu = lazy(() => import('@/app/shell/account-menu'));

const organizationTrigger = 'inline-flex max-w-xs items-center gap-2 rounded-md border border-slate-200 px-3 py-1.5 text-sm font-medium hover:bg-slate-50';
const avatarTrigger = 'grid size-9 place-items-center rounded-full bg-slate-900 text-sm font-semibold text-white uppercase';

export function Header() {
  const { user, organizations, logout } = useSession();
  const { organizationId, selectOrganization } = useCurrentOrganization();
  const { mode } = useServerInfo();
  const [creating, setCreating] = useState(false);
  const selected = organizations.find((o) => o.id === organizationId);

  return (
    <header className="flex h-14 shrink-0 items-center justify-between gap-4 border-b border-slate-200 bg-white px-6">
      <LoadOnFirstUse
        component={OrganizationMenu}
        label="Organization"
        triggerClassName={organizationTrigger}
        trigger={
          <>
            <span className="truncate">{selected?.name ?? 'Select Organization'}</span>
            <ChevronDown className="size-4 text-slate-500" />
          </>
        }
        props={{
          trigger: (
            <>
              <span className="truncate">{selected?.name ?? 'Select Organization'}</span>
              <ChevronDown className="size-4 text-slate-500" />
            </>
          ),
          triggerClassName: organizationTrigger,
          organizations,
          selectedId: organizationId,
          onSelect: selectOrganization,
          onAdd: () => setCreating(true),
        }}
      />
      <div className="flex items-center gap-3">
        {mode === 'local' ? <Badge tone="yellow">Local sign-in mode</Badge> : null}
        <LoadOnFirstUse
          component={AccountMenu}
          label="Account menu"
          triggerClassName={avatarTrigger}
          trigger={user?.name.charAt(0) ?? ''}
          props={{ trigger: user?.name.charAt(0) ?? '', triggerClassName: avatarTrigger, email: user?.email ?? '', onLogout: logout }}
        />
      </div>
      <CreateOrganizationDialog open={creating} onClose={() => setCreating(false)} />
    </header>
  );
}
