import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';

export const ONLY_OWNERS_ADD_MEMBERS =
  'Only organization owners can add new members. Please contact an owner to invite new users to this organization.';

export function PermissionRequiredDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return <Modal open={open} onClose={onClose} title="Permission Required" description={ONLY_OWNERS_ADD_MEMBERS} footer={<Button onClick={onClose}>OK</Button>} />;
}
