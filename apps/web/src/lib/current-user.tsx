import { GetUserResponse, LogoutResponse } from '@sift/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { DashboardApiError, postDashboard } from '@/lib/dashboard-api';
import { messages } from '@/lib/messages';
import { navigate } from '@/lib/router';
import { clearSessionToken, getSessionToken, takeSessionFromFragment } from '@/lib/session';

/** The user and their organizations (the header's list): invalidated when a change adds, renames or removes one. */
export const USER_KEY = ['user'] as const;

type User = GetUserResponse['user'];
type OrganizationSummary = GetUserResponse['organizations'][number];

interface SessionState {
  token: string | null;
  user: User | null;
  organizations: OrganizationSummary[];
  /** True while a stored token's profile is being fetched: the app shows 'Loading...'. */
  loadingUser: boolean;
  logout(): void;
  refetchUser(): Promise<unknown>;
}

const SessionContext = createContext<SessionState | null>(null);

async function fetchUser(): Promise<GetUserResponse> {
  try {
    return await postDashboard('/api/users/get-user', {}, GetUserResponse);
  } catch (error) {
    if (error instanceof DashboardApiError) throw new Error(messages.userFetchFailed(error.status));
    throw error;
  }
}

/** The session (spec §4): a stored token, the user's profile, logout on failure. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(() => {
    takeSessionFromFragment();
    return getSessionToken();
  });
  const user = useQuery({ queryKey: [...USER_KEY, token], queryFn: fetchUser, enabled: token !== null, retry: false, staleTime: Infinity });

  const logout = useCallback(() => {
    // The server ends the session too (its token is refused from now on); signing out here never waits for it.
    if (getSessionToken()) postDashboard('/api/users/logout', {}, LogoutResponse).catch(() => {});
    clearSessionToken();
    setToken(null);
    queryClient.clear();
    navigate('/login' + window.location.search, { replace: true });
  }, [queryClient]);

  useEffect(() => {
    if (user.error) {
      console.error(user.error);
      logout();
    }
  }, [user.error, logout]);

  const value = useMemo<SessionState>(
    () => ({
      token,
      user: user.data?.user ?? null,
      organizations: user.data?.organizations ?? [],
      loadingUser: token !== null && !user.data,
      logout,
      refetchUser: () => user.refetch(),
    }),
    [token, user.data, logout, user.refetch],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
