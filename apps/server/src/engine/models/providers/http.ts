/**
 * The one way Sift calls a model provider over HTTP: JSON in and out, a time limit per attempt,
 * and retries with exponential backoff (and the provider's `retry-after` when it sends one) for
 * what may pass: network errors, time-outs, 408, 429 and 5xx. Any other answer is final.
 */

export interface CallOptions {
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey?: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Attempts in all, the first included. */
  attempts?: number;
  /** The first retry's wait; each next one doubles it. */
  backoffMs?: number;
}

export const DEFAULT_CALL_OPTIONS: Required<Omit<CallOptions, 'apiKey'>> = { timeoutMs: 30_000, attempts: 4, backoffMs: 250 };

/** The longest wait a provider's `retry-after` may impose before Sift gives up on it. */
const MAX_RETRY_AFTER_MS = 10_000;

/**
 * A provider that failed. `status` is its HTTP status, or null when none came (unreachable,
 * timed out); `transient` says whether a later call may succeed (the provider is down or busy),
 * as against a refusal of this request.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

const isTransient = (status: number) => status === 408 || status === 429 || status >= 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.min(MAX_RETRY_AFTER_MS, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - Date.now()));
}

async function attempt(url: string, body: unknown, options: CallOptions & typeof DEFAULT_CALL_OPTIONS): Promise<{ json?: unknown; error?: ProviderError; waitMs?: number | null }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { error: new ProviderError(`${url}: ${timedOut ? `no answer within ${options.timeoutMs} ms` : `unreachable (${causeOf(error)})`}`, null, true) };
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const error = new ProviderError(`${url} answered ${response.status}: ${text.slice(0, 300)}`, response.status, isTransient(response.status));
    return { error, waitMs: retryAfterMs(response) };
  }
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { error: new ProviderError(`${url} answered ${response.status} with a body that is not JSON`, response.status, false) };
  }
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** POSTs `body` as JSON and returns the parsed answer, retrying what may pass; throws ProviderError. */
export async function postJson(url: string, body: unknown, callOptions: CallOptions = {}): Promise<unknown> {
  const options = { ...DEFAULT_CALL_OPTIONS, ...callOptions };
  let last: ProviderError | undefined;
  for (let i = 0; i < options.attempts; i++) {
    const result = await attempt(url, body, options);
    if (!result.error) return result.json;
    last = result.error;
    if (!last.transient || i === options.attempts - 1) break;
    // Full jitter on the doubling wait, so servers retrying together do not arrive together.
    await sleep(result.waitMs ?? options.backoffMs * 2 ** i * (0.5 + Math.random() / 2));
  }
  throw last!;
}

/** A base URL without its trailing slashes, and without `suffix` when the operator included it. */
export function baseUrl(url: string, suffix = ''): string {
  const trimmed = url.replace(/\/+$/, '');
  return suffix && trimmed.endsWith(suffix) ? trimmed.slice(0, -suffix.length) : trimmed;
}
