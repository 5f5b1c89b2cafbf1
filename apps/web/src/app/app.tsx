import { type ReactNode, useEffect } from 'react';
import { ApiKeysScreen } from '@/features/api-keys/components/api-keys-screen';
import { LoginPage } from '@/features/auth/components/login-page';
import { BillingScreen } from '@/features/billing/components/billing-screen';
import { CollectionsScreen } from '@/features/collections/components/collections-screen';
import { InviteDialog } from '@/features/invites/components/invite-dialog';
import { MarketplaceDialog } from '@/features/marketplace/components/marketplace-dialog';
import { OrganizationScreen } from '@/features/organization/components/organization-screen';
import { SearchScreen } from '@/features/search/components/search-screen';
import { UsageScreen } from '@/features/usage/components/usage-screen';
import { useSession } from '@/lib/current-user';
import { navigate, useLocation } from '@/lib/router';
import { type Route, resolveRoute } from '@/lib/routes';
import { Shell } from './shell/shell';

/** The six screens stay mounted; only the routed one is visible (spec §2). */
const SCREENS: [Route, () => ReactNode][] = [
  ['search', SearchScreen],
  ['api-keys', ApiKeysScreen],
  ['billing', BillingScreen],
  ['collections', CollectionsScreen],
  ['organization', OrganizationScreen],
  ['usage', UsageScreen],
];

export function App() {
  const { token, loadingUser } = useSession();
  const { pathname, search } = useLocation();
  const { route, redirect } = resolveRoute(pathname, search, token !== null);

  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);

  if (route === 'login') return <LoginPage />;
  if (loadingUser) return <FullScreenLoading />;
  return (
    <Shell route={route}>
      {SCREENS.map(([screen, Screen]) => (
        <div key={screen} hidden={screen !== route} data-screen={screen} className="h-full">
          <Screen />
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
