import { useState } from 'react';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input, Label } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { failureMessage } from '@/lib/dashboard-api';
import { useInviteUser } from '../api/organization-mutations';

export const MEMBER_PERMISSION_OPTIONS = [
  { value: 'MEMBER', label: 'MEMBER' },
  { value: 'OWNER', label: 'OWNER' },
] as const;

/** Invite Member: on success the caller shows 'Invitation Sent!' with the link. */
export function InviteMemberDialog({ open, onClose, onSent }: { open: boolean; onClose(): void; onSent(inviteUrl: string): void }) {
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState<'MEMBER' | 'OWNER'>('MEMBER');
  const invite = useInviteUser();
  const blank = email.trim() === '';

  const reset = () => {
    setEmail('');
    setPermission('MEMBER');
  };
  const submit = () => {
    invite.mutate(
      { email: email.trim(), permission },
      {
        onSuccess: ({ invite_url }) => {
          reset();
          onSent(invite_url);
        },
        onError: (error) => window.alert(`Failed to send invitation: ${failureMessage(error, 'Failed to send invitation')}`),
      },
    );
  };
  const close = () => {
    reset();
    onClose();
  };
  return (
    <FormDialog open={open} onClose={close} busy={invite.isPending} title="Invite Member" submitLabel="Send Invite" busyLabel="Sending..." submitDisabled={blank} onSubmit={submit}>
      <div>
        <Label htmlFor="invite-email">Email</Label>
        <Input id="invite-email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoFocus placeholder="name@company.com" />
      </div>
      <div>
        <Label htmlFor="invite-permission">Permission</Label>
        <Select id="invite-permission" value={permission} onValueChange={setPermission} options={MEMBER_PERMISSION_OPTIONS} />
      </div>
    </FormDialog>
  );
}
