import { lazy, Suspense } from 'react';
import { ScreenErrorBoundary } from '@/components/ui/screen-error-boundary';
import { ScreenLoading } from '@/components/ui/screen-loading';
import { useRouteVisited } from '@/lib/use-route-visited';

const CollectionsView = lazy(() => import('@/features/collections/components/collections-view').then((m) => ({ default: m.CollectionsView })));

/**
 * The Collections screen. It stays mounted with the others (spec §2); its code is a separate
 * chunk, fetched the first time the route is shown, so the first load of other screens stays light.
 */
export function CollectionsScreen() {
  const visited = useRouteVisited('collections');
  if (!visited) return null;
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={<ScreenLoading />}>
        <CollectionsView />
      </Suspense>
    </ScreenErrorBoundary>
  );
}
