import { lazy, Suspense } from 'react';
import { ScreenErrorBoundary } from '@/components/ui/screen-error-boundary';
import { ScreenLoading } from '@/components/ui/screen-loading';
import { useRouteVisited } from '@/lib/use-route-visited';

const SearchView = lazy(() => import('@/features/search/components/search-view').then((m) => ({ default: m.SearchView })));

/**
 * The Search screen. It stays mounted with the others (spec §2); its code is a separate chunk,
 * fetched the first time the route is shown, so the first load of other screens stays light.
 */
export function SearchScreen() {
  const visited = useRouteVisited('search');
  if (!visited) return null;
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={<ScreenLoading />}>
        <SearchView />
      </Suspense>
    </ScreenErrorBoundary>
  );
}
