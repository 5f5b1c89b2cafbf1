import { OrganizationSummary } from '@sift/contracts';
import { postDashboard } from '@/lib/dashboard-api';

/** Creates the organization with the marketplace's token in its own field (spec §3). */
export const addMarketplaceOrganization = (name: string, tokenField: string, token: string | null) =>
  postDashboard('/api/organizations/add-organization', { name, [tokenField]: token }, OrganizationSummary);
