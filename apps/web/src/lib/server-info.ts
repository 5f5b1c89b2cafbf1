import { useQuery } from '@tanstack/react-query';
import * as z from 'zod';

const ServerInfo = z.object({ mode: z.enum(['oidc', 'local']), docs_url: z.string() });
export type ServerInfo = z.infer<typeof ServerInfo>;

/** How this server signs people in and where its docs live (public, no session needed). */
export function useServerInfo(): ServerInfo {
  const { data } = useQuery({
    queryKey: ['server-info'],
    queryFn: async () => ServerInfo.parse(await (await fetch('/auth/mode')).json()),
    staleTime: Infinity,
  });
  return data ?? { mode: 'oidc', docs_url: '/docs' };
}
