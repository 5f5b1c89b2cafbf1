import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { ApiKeysScreen } from '@/features/api-keys/components/api-keys-screen';
import { LoginPage } from '@/features/auth/components/login-page';
import { InviteDialog } from '@/features/invites/components/invite-dialog';
import { MarketplaceDialog } from '@/features/marketplace/components/marketplace-dialog';
import { useSession } from '@/lib/current-user';
import { navigate, useLocation } from '@/lib/router';
import { type Route, resolveRoute } from '@/lib/routes';
import { Shell } from '@/app/shell/shell';

/** Screens other than API Keys load as their own chunks, so the first load stays light. */
const SearchScreen = lazy(() => import('@/features/search/components/search-screen').then((m) => ({ default: m.SearchScreen })));
const BillingScreen = lazy(() => import('@/features/billing/components/billing-screen').then((m) => ({ default: m.BillingScreen })));
const CollectionsScreen = lazy(() => import('@/features/collections/components/collections-screen').then((m) => ({ default: m.CollectionsScreen })));
const OrganizationScreen = lazy(() => import('@/features/organization/components/organization-screen').then((m) => ({ default: m.OrganizationScreen })));
const UsageScreen = lazy(() => import('@/features/usage/components/usage-screen').then((m) => ({ default: m.UsageScreen })));

/** The six screens (spec §2): only the routed one is visible. */
const SCREENS: [Route, ComponentType][] = [
  ['search', SearchScreen],
  ['api-keys', ApiKeysScreen],
  ['billing', BillingScreen],
  ['collections', CollectionsScreen],
  ['organization', OrganizationScreen],
  ['usage', UsageScreen],
];

/**
 * Screens mount on their first visit and then stay mounted, hidden when not routed, so each
 * keeps its state (a search, a selected document) across navigation without every screen's code
 * being fetched before the first one shows.
 */
function useVisitedScreens(route: Route): Set<Route> {
  const [visited, setVisited] = useState<Set<Route>>(() => new Set([route]));
  if (!visited.has(route)) setVisited(new Set(visited).add(route));
  return visited;
}

export function App() {
  const { token, loadingUser } = useSession();
  const { pathname, search } = useLocation();
  const { route, redirect } = resolveRoute(pathname, search, token !== null);
  const visited = useVisitedScreens(route);

  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);

  if (route === 'login') return <LoginPage />;
  if (loadingUser) return <FullScreenLoading />;
  return (
    <Shell route={route}>
      {SCREENS.filter(([screen]) => visited.has(screen)).map(([screen, Screen]) => (
        <div key={screen} hidden={screen !== route} data-screen={screen} className="h-full">
          <Suspense fallback={<p className="p-6 text-sm text-slate-500">Loading...</p>}>
            <Screen />
          </Suspense>
        </div>
      ))}
      <InviteDialog />
      <MarketplaceDialog />
    </Shell>
  );
}

function FullScreenLoading() {
  return (
    <div role="status" className="grid min-h-screen place-items-center text-slate-600">
      Loading...
    </div>
  );
}
