import { NoOrganization } from '@/components/no-organization';
import { Page } from '@/components/ui/page';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { MembersCard } from './members-card';
import { OrganizationDetailsCard } from './organization-details-card';

/** Four states: loading, error, none selected, loaded (spec §2 "Organization"). */
export function OrganizationScreen() {
  const { status, error, organizationId, organization, permission, reloadOrganization, noOrganization } = useCurrentOrganization();
  const { user } = useSession();

  if (noOrganization) {
    return (
      <Page title="Organization">
        <NoOrganization />
      </Page>
    );
  }
  if (status === 'error') {
    return (
      <Page title="Organization">
        <p role="alert" className="text-sm text-red-700">
          Error: {error}
        </p>
      </Page>
    );
  }
  if (status === 'loading' || (organizationId && !organization) || !user) {
    return (
      <Page title="Organization">
        <p role="status" className="text-sm text-slate-500">
          Loading...
        </p>
      </Page>
    );
  }
  if (!organizationId || !organization) {
    return (
      <Page title="Organization">
        <p className="text-sm text-slate-500">No organization selected</p>
      </Page>
    );
  }
  const isOwner = permission === 'OWNER';
  return (
    <Page title="Organization">
      <OrganizationDetailsCard organization={organization} isOwner={isOwner} />
      <MembersCard organization={organization} currentUserId={user.id} isOwner={isOwner} onInvited={() => void reloadOrganization()} />
    </Page>
  );
}
