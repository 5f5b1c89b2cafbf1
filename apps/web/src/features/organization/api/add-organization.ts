import { OrganizationSummary } from '@sift/contracts';
import { useMutation } from '@tanstack/react-query';
import { postDashboard } from '@/lib/dashboard-api';

export interface AddOrganizationInput {
  name: string;
  aws_marketplace_token?: string;
  vercel_marketplace_token?: string;
}

export const addOrganization = (input: AddOrganizationInput) =>
  postDashboard('/api/organizations/add-organization', input, OrganizationSummary);

export const useAddOrganization = () => useMutation({ mutationFn: addOrganization });
