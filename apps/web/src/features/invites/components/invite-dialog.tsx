import { useEffect, useMemo } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { useCurrentOrganization } from '@/lib/current-organization';
import { useSession } from '@/lib/current-user';
import { DashboardApiError } from '@/lib/dashboard-api';
import { navigate, removeQueryParam, useLocation } from '@/lib/router';
import { useAcceptInvite } from '@/features/invites/api/accept-invite';
import { decodeInvite } from '@/features/invites/decode-invite';

/** Shown when the address has an invite parameter and the user is loaded (spec §2, §4). */
export function InviteDialog() {
  const { user, refetchUser } = useSession();
  const { selectOrganization } = useCurrentOrganization();
  const { search } = useLocation();
  const accept = useAcceptInvite();
  const token = new URLSearchParams(search).get('invite');
  const invite = useMemo(() => (token ? decodeInvite(token) : null), [token]);

  useEffect(() => {
    if (user && token && !invite) {
      console.error('Invalid invite token: discarded');
      removeQueryParam('invite');
    }
  }, [user, token, invite]);

  if (!user || !token || !invite) return null;

  const decline = () => removeQueryParam('invite');
  const onAccept = () =>
    accept.mutate(token, {
      onSuccess: async (organization) => {
        removeQueryParam('invite');
        await refetchUser();
        selectOrganization(organization.id);
        navigate('/organization');
      },
      onError: (error) => {
        const message = error instanceof DashboardApiError ? (error.detail ?? 'Failed to accept invitation') : error instanceof Error ? error.message : 'Unknown Error';
        window.alert(`Failed to accept invite: ${message}`);
      },
    });

  return (
    <Modal
      open
      onClose={decline}
      busy={accept.isPending}
      title="Organization Invitation"
      description={
        <>
          <strong>{invite.from_email}</strong> has invited you to join <strong>{invite.org_name}</strong>.
        </>
      }
      footer={
        <>
          <Button variant="secondary" onClick={decline} disabled={accept.isPending}>
            Decline
          </Button>
          <Button onClick={onAccept} disabled={accept.isPending}>
            {accept.isPending ? 'Accepting...' : 'Accept'}
          </Button>
        </>
      }
    />
  );
}
