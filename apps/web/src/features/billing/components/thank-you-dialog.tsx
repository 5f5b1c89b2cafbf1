import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { billingMessages } from '@/features/billing/billing-messages';
import { type PlanType, planByType, plans } from '@/features/billing/billing-plans';

const isPlanType = (value: string): value is PlanType => plans.some((plan) => plan.type === value);

/**
 * Shown while the address carries recent_subscription_type (spec §2, §4): 'Thanks for
 * subscribing!', or 'Sorry to see you go!' for none. Closing removes the parameter.
 */
export function ThankYouDialog({ recentSubscriptionType, onClose }: { recentSubscriptionType: string | null; onClose(): void }) {
  const cancelled = recentSubscriptionType === 'none';
  const plan = recentSubscriptionType && isPlanType(recentSubscriptionType) ? planByType(recentSubscriptionType) : null;
  return (
    <Modal
      open={recentSubscriptionType !== null}
      onClose={onClose}
      title={cancelled ? billingMessages.sorry : billingMessages.thanks}
      description={
        cancelled
          ? 'Your plan stays active until the end of the current billing period.'
          : plan
            ? `Your organization is now on the ${plan.name} plan.`
            : 'Your subscription is being set up.'
      }
      footer={
        <Button onClick={onClose} data-testid="thank-you-close">
          Close
        </Button>
      }
    />
  );
}
