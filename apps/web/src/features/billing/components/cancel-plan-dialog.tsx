import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { formatBillingDate } from '@/features/billing/billing-plans';

interface CancelPlanDialogProps {
  open: boolean;
  planName: string;
  /** End of the current billing period, when known. */
  periodEnd: string | null;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** 'Confirm Plan Cancellation' (spec §2): the plan returns to none at the end of the billing period. */
export function CancelPlanDialog({ open, planName, periodEnd, busy, onConfirm, onClose }: CancelPlanDialogProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={busy}
      title="Confirm Plan Cancellation"
      description={`Your ${planName} plan stays active until the end of the current billing period${
        periodEnd ? ` (${formatBillingDate(periodEnd)})` : ''
      }, then your organization has no plan. Do you want to cancel it?`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Keep plan
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {busy ? 'Cancelling...' : 'Cancel plan'}
          </Button>
        </>
      }
    />
  );
}
