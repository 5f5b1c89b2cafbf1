import { SubscribeResponse, type SubscriptionType } from '@sift/contracts';
import { useMutation } from '@tanstack/react-query';
import { useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';
import { redirectBrowser } from '@/lib/router';

export const subscribe = (input: { organization_id: string; subscription_type: SubscriptionType }) =>
  postDashboard('/billing/subscribe', input, SubscribeResponse);

/**
 * Subscribing sends the whole browser to the returned `redirect_url` (the checkout); the plan
 * changes when the checkout is confirmed, and the page is loaded afresh on return.
 */
export function useSubscribe() {
  const { organizationId } = useCurrentOrganization();
  return useMutation({
    mutationFn: (subscriptionType: SubscriptionType) => subscribe({ organization_id: organizationId!, subscription_type: subscriptionType }),
    onSuccess: ({ redirect_url }) => redirectBrowser(redirect_url),
  });
}
