import { ChevronDown } from 'lucide-react';
import { lazy, useCallback, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { LoadOnFirstUse } from '@/components/ui/load-on-first-use';
import { CreateOrganizationDialog } from '@/features/organization/components/create-organization-dialog';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { useServerInfo } from '@/lib/server-info';
import { useCreateOrganizationRequests } from '@/lib/create-organization-request';
import type { Route } from '@/lib/routes';
import { NavigationSheet } from '@/app/shell/sidebar';

const OrganizationMenu = lazy(() => import('@/app/shell/organization-menu'));
const AccountMenu = lazy(() => import('@/app/shell/account-menu'));

const organizationTrigger = 'inline-flex min-w-0 max-w-xs items-center gap-2 rounded-md border border-slate-200 px-3 py-1.5 text-sm font-medium hover:bg-slate-50';
const avatarTrigger = 'grid size-9 place-items-center rounded-full bg-slate-900 text-sm font-semibold text-white uppercase';

export function Header({ route }: { route: Route }) {
  const { user, organizations, logout } = useSession();
  const { organizationId, selectOrganization } = useCurrentOrganization();
  const { mode } = useServerInfo();
  const [creating, setCreating] = useState(false);
  useCreateOrganizationRequests(useCallback(() => setCreating(true), []));
  const selected = organizations.find((o) => o.id === organizationId);

  // The visible name is the control's name too (a screen reader hears what is seen), after a
  // hidden 'Organization:' that says what the button is for.
  const organizationLabel = (
    <>
      <span className="sr-only">Organization: </span>
      <span className="truncate">{selected?.name ?? 'Select Organization'}</span>
      <ChevronDown aria-hidden className="size-4 shrink-0 text-slate-500" />
    </>
  );

  // Named 'Account menu'; the letter alone would be read as a word.
  const avatarLetter = <span aria-hidden>{user?.name.charAt(0) ?? ''}</span>;

  return (
    <header className="flex h-14 shrink-0 items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 sm:px-6">
      <div className="flex min-w-0 items-center gap-2">
        <NavigationSheet route={route} />
        <LoadOnFirstUse
          component={OrganizationMenu}
          triggerClassName={organizationTrigger}
          trigger={organizationLabel}
          props={{
            trigger: organizationLabel,
            triggerClassName: organizationTrigger,
            organizations,
            selectedId: organizationId,
            onSelect: selectOrganization,
            onAdd: () => setCreating(true),
          }}
        />
      </div>
      <div className="flex shrink-0 items-center gap-3">
        {mode === 'local' ? (
          <span className="hidden sm:inline">
            <Badge tone="yellow">Local sign-in mode</Badge>
          </span>
        ) : null}
        <LoadOnFirstUse
          component={AccountMenu}
          label="Account menu"
          triggerClassName={avatarTrigger}
          trigger={avatarLetter}
          props={{ trigger: avatarLetter, triggerClassName: avatarTrigger, email: user?.email ?? '', onLogout: logout }}
        />
      </div>
      <CreateOrganizationDialog open={creating} onClose={() => setCreating(false)} />
    </header>
  );
}
