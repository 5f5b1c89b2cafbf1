import type { OrganizationDetail } from '@sift/contracts';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Select } from '@/components/ui/select';
import { MEMBER_PERMISSION_OPTIONS } from '@/features/organization/member-permissions';
import { InvitationSentDialog } from '@/features/organization/components/invitation-sent-dialog';
import { InviteMemberDialog } from '@/features/organization/components/invite-member-dialog';
import { MemberConfirmations, type PendingMemberAction } from '@/features/organization/components/member-confirmations';
import { PermissionRequiredDialog } from '@/features/organization/components/permission-required-dialog';

const permissionBadge = (permission: 'OWNER' | 'MEMBER') => <Badge tone={permission === 'OWNER' ? 'purple' : 'blue'}>{permission}</Badge>;

export function MembersCard({ organization, currentUserId, isOwner }: { organization: OrganizationDetail; currentUserId: string; isOwner: boolean }) {
  const [inviting, setInviting] = useState(false);
  const [permissionRequired, setPermissionRequired] = useState(false);
  const [inviteUrl, setInviteUrl] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingMemberAction | null>(null);
  const empty = organization.users.length === 0 && organization.invited_emails.length === 0;

  return (
    <Card
      title="Members"
      actions={
        <Button variant="secondary" onClick={() => (isOwner ? setInviting(true) : setPermissionRequired(true))}>
          <UserPlus className="size-4" /> Invite Member
        </Button>
      }
    >
      {empty ? (
        <p className="py-6 text-center text-sm text-slate-500">No members found</p>
      ) : (
        <ul className="-my-2 divide-y divide-slate-100" aria-label="Members">
          {organization.users.map((member) => {
            const isYou = member.id === currentUserId;
            return (
              <li key={member.id} className="flex flex-wrap items-center gap-3 py-3" data-testid="member-row">
                <div className="min-w-0 flex-1 basis-48">
                  <div className="flex items-center gap-2 font-medium text-slate-900">
                    {member.name} {isYou ? <Badge tone="green">You</Badge> : null}
                  </div>
                  <div className="truncate text-sm text-slate-500">{member.email}</div>
                </div>
                {isOwner && !isYou ? (
                  <Select
                    aria-label={`Permission of ${member.name}`}
                    value={member.permission}
                    className="w-32"
                    onValueChange={(permission) => setPending({ kind: 'change-permission', member, permission })}
                    options={MEMBER_PERMISSION_OPTIONS}
                  />
                ) : (
                  permissionBadge(member.permission)
                )}
                {isOwner ? (
                  <Button variant="danger-ghost" onClick={() => setPending(isYou ? { kind: 'leave', member, lastOwner: organization.users.filter((u) => u.permission === 'OWNER').length <= 1 } : { kind: 'remove-user', member })}>
                    {isYou ? 'Leave' : 'Remove'}
                  </Button>
                ) : null}
              </li>
            );
          })}
          {organization.invited_emails.map((invite) => (
            <li key={invite.email} className="flex flex-wrap items-center gap-3 py-3" data-testid="invite-row">
              <div className="min-w-0 flex-1 basis-48">
                <div className="truncate text-sm font-medium text-slate-900">{invite.email}</div>
              </div>
              <Badge tone="yellow">Invite Sent</Badge>
              {permissionBadge(invite.permission)}
              {isOwner ? (
                <Button variant="danger-ghost" onClick={() => setPending({ kind: 'remove-invite', email: invite.email })}>
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <InviteMemberDialog
        open={inviting}
        onClose={() => setInviting(false)}
        onSent={(url) => {
          setInviting(false);
          setInviteUrl(url);
        }}
      />
      <InvitationSentDialog inviteUrl={inviteUrl} onClose={() => setInviteUrl(null)} />
      <PermissionRequiredDialog open={permissionRequired} onClose={() => setPermissionRequired(false)} />
      <MemberConfirmations pending={pending} onClose={() => setPending(null)} />
    </Card>
  );
}
