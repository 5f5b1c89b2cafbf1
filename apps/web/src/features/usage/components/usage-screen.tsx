import { lazy, Suspense } from 'react';
import { ScreenLoading } from '@/components/ui/screen-loading';
import { useRouteVisited } from '@/lib/use-route-visited';

const UsageView = lazy(() => import('@/features/usage/components/usage-view').then((m) => ({ default: m.UsageView })));

/**
 * The Usage screen. It stays mounted with the others (spec §2); its code (charts included) is a
 * separate chunk fetched the first time the route is shown, so the first load of login or API
 * Keys never pays for the chart library.
 */
export function UsageScreen() {
  const visited = useRouteVisited('usage');
  if (!visited) return null;
  return (
    <Suspense fallback={<ScreenLoading />}>
      <UsageView />
    </Suspense>
  );
}
