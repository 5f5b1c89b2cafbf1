import { CreateOrganizationButton } from '@/components/no-organization';
import { Page } from '@/components/ui/page';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { MembersCard } from '@/features/organization/components/members-card';
import { OrganizationDetailsCard } from '@/features/organization/components/organization-details-card';

/** Four states: loading, error, none selected, loaded (spec §2 "Organization"). */
export function OrganizationScreen() {
  const { status, error, organizationId, organization, permission, noOrganization } = useCurrentOrganization();
  const { user } = useSession();

  // With no organization the state is error with the create-an-organization message (spec §4),
  // shown in the error form; the button beside it is the way out.
  if (status === 'error') {
    return (
      <Page title="Organization">
        <div className="flex flex-col items-start gap-3">
          <p role="alert" className="text-sm text-red-700">
            Error: {error}
          </p>
          {noOrganization ? <CreateOrganizationButton /> : null}
        </div>
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
      <MembersCard organization={organization} currentUserId={user.id} isOwner={isOwner} />
    </Page>
  );
}
