import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { useDeleteInvite } from '@/features/organization/api/delete-invite';
import { useRemoveUser } from '@/features/organization/api/remove-user';
import { useUpdateUser } from '@/features/organization/api/update-user';
import { failureMessage } from '@/lib/dashboard-api';
import { navigate, reloadPage } from '@/lib/router';

type Member = { id: string; name: string };

/** The member action waiting for confirmation. */
export type PendingMemberAction =
  | { kind: 'change-permission'; member: Member; permission: 'OWNER' | 'MEMBER' }
  /** `lastOwner`: nobody would be left to own the organization, which the server refuses. */
  | { kind: 'leave'; member: Member; lastOwner: boolean }
  | { kind: 'remove-user'; member: Member }
  | { kind: 'remove-invite'; email: string };

const unknownError = 'Unknown error';

/** Said before the server would refuse it: an organization keeps at least one owner. */
export const LAST_OWNER_MESSAGE =
  'You are the only owner of this organization, so you cannot leave it yet. Make another member an owner first (change their permission to OWNER), or delete the organization.';

/** The four confirmations of the Members card and what follows each (spec §4 "Members"). */
export function MemberConfirmations({ pending, onClose }: { pending: PendingMemberAction | null; onClose(): void }) {
  const updateUser = useUpdateUser();
  const removeUser = useRemoveUser();
  const deleteInvite = useDeleteInvite();
  const busy = updateUser.isPending || removeUser.isPending || deleteInvite.isPending;

  /** A refusal (the last owner leaving, say) closes the confirmation: the alert stands alone. */
  const refused = (prefix: string) => (error: Error) => {
    onClose();
    window.alert(`${prefix}: ${failureMessage(error, unknownError)}`);
  };
  const confirm = () => {
    if (!pending) return;
    switch (pending.kind) {
      case 'change-permission':
        return updateUser.mutate(
          { user_id: pending.member.id, permission: pending.permission },
          { onSuccess: reloadPage, onError: refused('Failed to update user permission') },
        );
      case 'remove-user':
        return removeUser.mutate(
          { user_id: pending.member.id },
          { onSuccess: reloadPage, onError: refused('Failed to remove user') },
        );
      case 'leave':
        return removeUser.mutate(
          { user_id: pending.member.id },
          {
            onSuccess: () => {
              onClose();
              navigate('/api-keys');
            },
            onError: refused('Failed to remove user'),
          },
        );
      case 'remove-invite':
        return deleteInvite.mutate(
          { email: pending.email },
          {
            onSuccess: onClose,
            onError: refused('Failed to remove invite'),
          },
        );
    }
  };

  if (pending?.kind === 'leave' && pending.lastOwner) {
    return (
      <Modal
        open
        onClose={onClose}
        title="Leave Organization"
        description={LAST_OWNER_MESSAGE}
        footer={<Button onClick={onClose}>OK</Button>}
      />
    );
  }
  const text = pending ? describe(pending) : { title: '', description: '', confirmLabel: '', busyLabel: '' };
  return <ConfirmDialog open={pending !== null} busy={busy} danger={pending?.kind !== 'change-permission'} onConfirm={confirm} onClose={onClose} {...text} />;
}

function describe(pending: PendingMemberAction) {
  switch (pending.kind) {
    case 'change-permission':
      return {
        title: 'Change Permission',
        description: `Are you sure you want to change the permission of ${pending.member.name} to ${pending.permission}?`,
        confirmLabel: 'Change Permission',
        busyLabel: 'Updating...',
      };
    case 'leave':
      return {
        title: 'Leave Organization',
        description: 'Are you sure you want to leave this organization? You will lose access to it until someone invites you again.',
        confirmLabel: 'Leave',
        busyLabel: 'Leaving...',
      };
    case 'remove-user':
      return {
        title: 'Remove User',
        description: `Are you sure you want to remove ${pending.member.name} from this organization?`,
        confirmLabel: 'Remove',
        busyLabel: 'Removing...',
      };
    case 'remove-invite':
      return {
        title: 'Remove Invite',
        description: `Are you sure you want to remove the invitation sent to ${pending.email}?`,
        confirmLabel: 'Remove',
        busyLabel: 'Removing...',
      };
  }
}
