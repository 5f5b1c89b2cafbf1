import { PauseResponse } from '@sift/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { billingStatusKey } from '@/features/billing/api/get-billing-status';
import { useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';
import { navigate } from '@/lib/router';

/** /billing/pause: the plan returns to none at the end of the billing period. */
export const cancelPlan = (input: { organization_id: string }) => postDashboard('/billing/pause', input, PauseResponse);

/** On success the billing status is refetched and the address carries recent_subscription_type=none (spec §4, §7). */
export function useCancelPlan() {
  const { organizationId } = useCurrentOrganization();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelPlan({ organization_id: organizationId! }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: billingStatusKey(organizationId) });
      navigate('/billing?recent_subscription_type=none');
    },
  });
}
