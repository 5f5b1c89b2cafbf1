import { useState } from 'react';
import { Page } from '@/components/ui/page';
import { useCurrentOrganization } from '@/lib/current-organization';
import { removeQueryParam, useLocation } from '@/lib/router';
import { useCancelPlan } from '@/features/billing/api/cancel-plan';
import { useBillingStatus } from '@/features/billing/api/get-billing-status';
import { useSubscribe } from '@/features/billing/api/subscribe';
import { billingMessages } from '@/features/billing/billing-messages';
import { type PlanType, planByType } from '@/features/billing/billing-plans';
import { BillingHistory } from '@/features/billing/components/billing-history';
import { CancelPlanDialog } from '@/features/billing/components/cancel-plan-dialog';
import { ConfirmSubscriptionDialog } from '@/features/billing/components/confirm-subscription-dialog';
import { ModelCards } from '@/features/billing/components/model-cards';
import { PlanCards } from '@/features/billing/components/plan-cards';
import { ThankYouDialog } from '@/features/billing/components/thank-you-dialog';

export const RECENT_SUBSCRIPTION_PARAM = 'recent_subscription_type';

/** The Billing screen of spec §2: Models, Billing Plans, Billing history and their modals. */
export function BillingScreen() {
  const { organizationId } = useCurrentOrganization();
  const billingStatus = useBillingStatus();
  const billing = billingStatus.data ?? null;
  const { pathname, search } = useLocation();
  const [choosing, setChoosing] = useState<PlanType | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const subscribe = useSubscribe();
  const cancelPlan = useCancelPlan();

  const current = billing?.subscription_type ?? 'none';
  const loaded = organizationId !== null && !billingStatus.isPending;
  // Shown on the billing route only: the screen stays mounted under the others.
  const recentSubscriptionType = pathname.split('/')[1] === 'billing' ? new URLSearchParams(search).get(RECENT_SUBSCRIPTION_PARAM) : null;

  const confirmSubscription = (plan: PlanType) =>
    subscribe.mutate(plan, {
      onError: (error) => window.alert(billingMessages.subscribeFailed(error)),
      onSettled: (_data, error) => error && setChoosing(null),
    });

  const confirmCancellation = () =>
    cancelPlan.mutate(undefined, {
      onSuccess: () => setCancelling(false),
      onError: (error) => {
        console.error(billingMessages.cancelFailed(error));
        setCancelling(false);
      },
    });

  return (
    <Page title="Billing">
      <ModelCards />
      <PlanCards current={current} trialEndDate={billing?.trial_end_date ?? null} enabled={organizationId !== null} onChoose={setChoosing} />
      <BillingHistory
        invoices={!organizationId || loaded ? (billing?.invoices ?? []) : null}
        canCancel={current !== 'none'}
        cancelAt={billing?.cancel_at ?? null}
        onCancelPlan={() => setCancelling(true)}
      />
      <ConfirmSubscriptionDialog plan={choosing} busy={subscribe.isPending || subscribe.isSuccess} onConfirm={confirmSubscription} onClose={() => setChoosing(null)} />
      <CancelPlanDialog
        open={cancelling}
        planName={current === 'none' ? '' : planByType(current).name}
        periodEnd={billing?.current_period_end ?? null}
        busy={cancelPlan.isPending}
        onConfirm={confirmCancellation}
        onClose={() => setCancelling(false)}
      />
      <ThankYouDialog recentSubscriptionType={recentSubscriptionType} onClose={() => removeQueryParam(RECENT_SUBSCRIPTION_PARAM)} />
    </Page>
  );
}
