import { useSyncExternalStore } from 'react';
import { withInviteCarriedOver } from '@/lib/routes';

const CHANGE = 'sift:navigate';

const subscribe = (onChange: () => void) => {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
};

const snapshot = () => window.location.pathname + window.location.search;

/** The current address (path and query), following navigation and browser back/forward. */
export function useLocation(): { pathname: string; search: string } {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  return { pathname: url.pathname, search: url.search };
}

/** In-app navigation without a page load. */
export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
}

/** Removes one query parameter from the address without adding a history entry. */
export function removeQueryParam(name: string): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(name)) return;
  url.searchParams.delete(name);
  navigate(url.pathname + url.search + url.hash, { replace: true });
}

/** A full page load elsewhere (sign-in, checkout), keeping a pending invite (spec §2). */
export function redirectBrowser(target: string): void {
  window.location.assign(withInviteCarriedOver(target, window.location.search));
}

export function reloadPage(): void {
  window.location.reload();
}
