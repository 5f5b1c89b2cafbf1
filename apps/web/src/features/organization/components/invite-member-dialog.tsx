import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label, Select } from '@/components/ui/input';
import { Modal } from '@/components/ui/modal';
import { failureMessage } from '@/lib/dashboard-api';
import { useInviteUser } from '../api/organization-mutations';

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
    if (blank || invite.isPending) return;
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
  return (
    <Modal
      open={open}
      onClose={() => {
        reset();
        onClose();
      }}
      busy={invite.isPending}
      title="Invite Member"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={invite.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={blank || invite.isPending}>
            {invite.isPending ? 'Sending...' : 'Send Invite'}
          </Button>
        </>
      }
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div>
          <Label htmlFor="invite-email">Email</Label>
          <Input id="invite-email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoFocus placeholder="name@company.com" />
        </div>
        <div>
          <Label htmlFor="invite-permission">Permission</Label>
          <Select id="invite-permission" value={permission} onChange={(event) => setPermission(event.target.value as 'MEMBER' | 'OWNER')}>
            <option value="MEMBER">MEMBER</option>
            <option value="OWNER">OWNER</option>
          </Select>
        </div>
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
