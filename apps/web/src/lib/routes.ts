/** The first path segments the dashboard answers to (spec §2 "Routing"). */
export const ROUTES = ['login', 'docs', 'api-keys', 'search', 'billing', 'collections', 'organization', 'usage'] as const;
export type Route = (typeof ROUTES)[number];

const isRoute = (segment: string): segment is Route => (ROUTES as readonly string[]).includes(segment);

export const firstSegment = (pathname: string): string => pathname.split('/')[1] ?? '';

/**
 * Where an address leads: the route it names, or a redirect (keeping the query string) when the
 * segment is unknown, when a signed-out user asks for anything but login, or when a signed-in
 * user asks for login.
 */
export function resolveRoute(pathname: string, search: string, signedIn: boolean): { route: Route; redirect?: string } {
  const segment = firstSegment(pathname);
  let route: Route = isRoute(segment) ? segment : signedIn ? 'api-keys' : 'login';
  if (!signedIn && route !== 'login') route = 'login';
  if (signedIn && route === 'login') route = 'api-keys';
  return route === segment ? { route } : { route, redirect: `/${route}${search}` };
}

/**
 * The whole-browser redirect helper: a target without a query part carries the current
 * address's invite parameter along.
 */
export function withInviteCarriedOver(target: string, currentSearch: string): string {
  const invite = new URLSearchParams(currentSearch).get('invite');
  if (target.includes('?') || !invite) return target;
  return `${target}?invite=${encodeURIComponent(invite)}`;
}
