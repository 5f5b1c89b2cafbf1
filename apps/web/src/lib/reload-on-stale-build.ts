/** When this tab last reloaded for a chunk it could not load (per tab: session storage). */
const RELOADED_AT = 'sift.stale_build_reloaded_at';
/** A second failure this soon after reloading is not a stale build: it is left to show. */
const AT_MOST_EVERY_MS = 60_000;

/**
 * A tab opened before Sift was upgraded asks for the old build's chunks (screens, menus, dialogs
 * load on first use), which the server no longer has: the import fails and the page goes blank.
 * Vite reports such a failure as `vite:preloadError`; the tab then loads the new build once,
 * keeping its address, instead.
 */
export function reloadOnStaleBuild(): void {
  window.addEventListener('vite:preloadError', () => {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < AT_MOST_EVERY_MS) return;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    window.location.reload();
  });
}
