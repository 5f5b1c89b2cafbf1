import { readStored, removeStored, storageKeys, writeStored } from '@/lib/storage-keys';

export const getSessionToken = (): string | null => readStored(storageKeys.sessionToken);
export const setSessionToken = (token: string): void => writeStored(storageKeys.sessionToken, token);
export const clearSessionToken = (): void => removeStored(storageKeys.sessionToken);

/**
 * Sign-in ends on the dashboard with `#session=<jwt>`: keep the token and strip the fragment so
 * it never sits in the address bar or the history.
 */
export function takeSessionFromFragment(): void {
  const match = /(?:^#|&)session=([^&]+)/.exec(window.location.hash);
  if (!match) return;
  setSessionToken(decodeURIComponent(match[1]!));
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
}
