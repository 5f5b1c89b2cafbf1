import { afterEach, expect, test, vi } from 'vitest';
import { reloadOnStaleBuild } from '@/lib/reload-on-stale-build';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

test('a chunk that fails to load reloads the tab once a minute at most, so a build that cannot load never loops', () => {
  vi.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z'), toFake: ['Date'] });
  const reload = vi.fn();
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
  reloadOnStaleBuild();
  const failedImport = () => window.dispatchEvent(new Event('vite:preloadError', { cancelable: true }));

  failedImport();
  expect(reload).toHaveBeenCalledTimes(1);
  // The reloaded build fails too: that is shown, not reloaded again.
  vi.setSystemTime(new Date('2026-11-27T12:00:30Z'));
  failedImport();
  expect(reload).toHaveBeenCalledTimes(1);
  // A later upgrade, in the same tab, reloads again.
  vi.setSystemTime(new Date('2026-11-27T13:00:00Z'));
  failedImport();
  expect(reload).toHaveBeenCalledTimes(2);
});
