import type { OrganizationDetail } from '@sift/contracts';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button, IconButton } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatUsLongDateTime } from '@/lib/dates';
import { displayOrganizationId } from '@/features/organization/organization-id';
import { DeleteOrganizationDialog } from '@/features/organization/components/delete-organization-dialog';
import { EditOrganizationNameDialog } from '@/features/organization/components/edit-organization-name-dialog';

export function OrganizationDetailsCard({ organization, isOwner }: { organization: OrganizationDetail; isOwner: boolean }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return (
    <Card
      title="Organization Details"
      actions={
        isOwner ? (
          <Button variant="danger-ghost" onClick={() => setDeleting(true)}>
            <Trash2 className="size-4" /> Delete Organization
          </Button>
        ) : null
      }
    >
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-xs font-medium text-slate-500">Organization ID</dt>
          <dd className="mt-1 font-mono text-sm break-all text-slate-900">{displayOrganizationId(organization.id)}</dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-slate-500">Organization Name</dt>
          <dd className="mt-1 flex items-center gap-1 text-sm text-slate-900">
            {organization.name}
            {isOwner ? (
              <IconButton label="Edit Organization Name" onClick={() => setEditing(true)}>
                <Pencil className="size-4" />
              </IconButton>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium text-slate-500">Organization Created Date</dt>
          <dd className="mt-1 text-sm text-slate-900">{formatUsLongDateTime(organization.created_at)}</dd>
        </div>
      </dl>
      <EditOrganizationNameDialog open={editing} currentName={organization.name} onClose={() => setEditing(false)} />
      <DeleteOrganizationDialog open={deleting} organization={organization} onClose={() => setDeleting(false)} />
    </Card>
  );
}
