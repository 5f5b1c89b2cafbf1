import { BillingStatusResponse } from '@sift/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCurrentOrganization } from '@/lib/current-organization';
import { postDashboard } from '@/lib/dashboard-api';

export const billingStatusKey = (organizationId: string | null) => ['billing', organizationId] as const;

/** A billing status failure leaves billing empty (spec §4, §8: only logged). */
async function getBillingStatus(organizationId: string) {
  try {
    return await postDashboard('/billing/status', { organization_id: organizationId }, BillingStatusResponse);
  } catch (error) {
    console.error('billing status failed', error);
    return null;
  }
}

/** The selected organization's plan and invoices (spec §4: loaded with the organization). */
export function useBillingStatus() {
  const { organizationId } = useCurrentOrganization();
  return useQuery({ queryKey: billingStatusKey(organizationId), queryFn: () => getBillingStatus(organizationId!), enabled: organizationId !== null });
}
