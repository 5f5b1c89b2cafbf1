import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button, IconButton } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { COPY_CONFIRMATION_MS } from '@/lib/constants';

export function InvitationSentDialog({ inviteUrl, onClose }: { inviteUrl: string | null; onClose(): void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(inviteUrl ?? '');
      setCopied(true);
      setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    } catch (error) {
      console.error('copy failed', error);
    }
  };
  return (
    <Modal
      open={inviteUrl !== null}
      onClose={onClose}
      title="Invitation Sent!"
      description="Share this link with the person you invited. It lets them join this organization after they sign in."
      footer={<Button onClick={onClose}>Done</Button>}
    >
      <div className="flex items-center gap-2">
        <input readOnly aria-label="Invite link" value={inviteUrl ?? ''} className="w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs" onFocus={(event) => event.target.select()} />
        <IconButton label="Copy invite link" onClick={copy}>
          {copied ? <Check className="size-4 text-green-600" /> : <Copy className="size-4" />}
        </IconButton>
      </div>
    </Modal>
  );
}
