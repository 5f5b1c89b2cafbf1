import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { OrganizationProvider } from '@/lib/current-organization';
import { SessionProvider } from '@/lib/current-user';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: 30_000 } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <OrganizationProvider>{children}</OrganizationProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
}
