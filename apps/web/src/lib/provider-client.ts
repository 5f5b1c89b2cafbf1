import ZeroEntropy, { type ClientOptions } from 'zeroentropy';

/** Local development ports of the dashboard, mapped to a Sift server on port 8000 (spec §7). */
const LOCAL_DEV_PORTS = ['5173', '4173'];

/**
 * The provider API's base address for the host the dashboard runs on: the same origin's /v1
 * when the Sift server serves the dashboard, http://localhost:8000/v1 from the local dev servers,
 * and 'Invalid host' anywhere else.
 */
export function providerBaseUrl(location: Pick<Location, 'hostname' | 'port' | 'origin'>, servedBySift = import.meta.env.PROD): string {
  const local = ['localhost', '127.0.0.1'].includes(location.hostname);
  if (local && LOCAL_DEV_PORTS.includes(location.port)) return 'http://localhost:8000/v1';
  if (servedBySift) return `${location.origin}/v1`;
  throw new Error('Invalid host');
}

/**
 * The official SDK, unchanged but for its base URL: it brings spec §8–9's timeout, retries,
 * backoff and error classes. Calls it has no method for go through `client.post(path, { body })`.
 */
export function createProviderClient(apiKey: string, options: Omit<ClientOptions, 'apiKey' | 'baseURL'> = {}): ZeroEntropy {
  return new ZeroEntropy({ ...options, apiKey, baseURL: providerBaseUrl(window.location) });
}
