import { describe, expect, it } from 'vitest';
import { isNotFoundError, providerErrorMessage } from '@/lib/provider-errors';

describe('providerErrorMessage', () => {
  it("gives the status and the server's detail of a provider error", () => {
    const error = Object.assign(new Error('403 {"detail":"This API key is read-only."}'), { status: 403, error: { detail: 'This API key is read-only.' } });
    expect(providerErrorMessage(error)).toBe('403 This API key is read-only.');
  });

  it('gives the message of any other error', () => {
    expect(providerErrorMessage(new Error('Request timed out.'))).toBe('Request timed out.');
    expect(providerErrorMessage('plain')).toBe('plain');
  });

  it('recognises a 404', () => {
    expect(isNotFoundError({ status: 404 })).toBe(true);
    expect(isNotFoundError(new Error('x'))).toBe(false);
  });
});
