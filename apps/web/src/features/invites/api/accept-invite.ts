import { AcceptInviteResponse } from '@sift/contracts';
import { useMutation } from '@tanstack/react-query';
import { postDashboard } from '@/lib/dashboard-api';

export const acceptInvite = (inviteJwt: string) =>
  postDashboard('/api/organizations/users/accept-invite', { invite_jwt: inviteJwt }, AcceptInviteResponse);

export const useAcceptInvite = () => useMutation({ mutationFn: acceptInvite });
