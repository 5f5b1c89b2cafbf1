import { useState } from 'react';
import { useLocation } from '@/lib/router';
import { firstSegment, type Route } from '@/lib/routes';

/**
 * True from the first time the address shows this route on. A screen that stays mounted while
 * hidden (spec §2) can wait for this before loading its lazy chunk, so the first load of another
 * screen does not fetch it; once visited it stays loaded and keeps its state.
 */
export function useRouteVisited(route: Route): boolean {
  const { pathname } = useLocation();
  const [visited, setVisited] = useState(false);
  const current = firstSegment(pathname) === route;
  if (current && !visited) setVisited(true);
  return visited || current;
}

/** True while the address shows this route (its screen is the visible one). */
export function useRouteActive(route: Route): boolean {
  const { pathname } = useLocation();
  return firstSegment(pathname) === route;
}
