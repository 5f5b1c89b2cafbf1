/**
 * The text of a provider client error for a person: the status and the server's `detail`
 * (`403 This API key is read-only.`) rather than the SDK's raw `403 {"detail":"..."}`; any other
 * error gives its message. Duck-typed so that it does not pull the SDK into a bundle.
 */
export function providerErrorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const { status, error: body, message } = error as { status?: unknown; error?: unknown; message?: unknown };
    const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
    if (typeof status === 'number' && detail !== undefined) {
      return `${status} ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
    }
    if (typeof message === 'string' && message) return message;
  }
  return String(error);
}

/** True for the SDK's NotFoundError (status 404), also duck-typed. */
export const isNotFoundError = (error: unknown): boolean =>
  !!error && typeof error === 'object' && (error as { status?: unknown }).status === 404;
