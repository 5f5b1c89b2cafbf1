import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { formatPlanPrice, type PlanType, planByType } from '@/features/billing/billing-plans';

interface ConfirmSubscriptionDialogProps {
  plan: PlanType | null;
  busy: boolean;
  onConfirm(plan: PlanType): void;
  onClose(): void;
}

/** 'Confirm {plan} Subscription' (spec §2): confirming opens the checkout. */
export function ConfirmSubscriptionDialog({ plan, busy, onConfirm, onClose }: ConfirmSubscriptionDialogProps) {
  const details = plan ? planByType(plan) : null;
  return (
    <Modal
      open={details !== null}
      onClose={onClose}
      busy={busy}
      title={details ? `Confirm ${details.name} Subscription` : ''}
      description={
        details
          ? `Subscribe your organization to the ${details.name} plan at ${formatPlanPrice(details)}${
              details.trialWeeks ? `, free for ${details.trialWeeks} weeks for a first subscription` : ''
            }. You will confirm the payment at checkout.`
          : ''
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={() => plan && onConfirm(plan)} disabled={busy}>
            {busy ? 'Redirecting...' : 'Confirm'}
          </Button>
        </>
      }
    />
  );
}
