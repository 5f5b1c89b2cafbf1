import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { AppProviders } from '@/app/providers';

type Handler = (body: Record<string, unknown>) => { status?: number; body: unknown };

/**
 * Stands in for the network in component tests: answers the dashboard's fetches by path, records
 * what was sent. Everything above fetch (clients, validation, state, screens) is the real code.
 */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      const body = init?.body ? JSON.parse(String(init.body)) : {};
      calls.push({ path, body });
      const handler = routes[path];
      const { status = 200, body: answer } = handler ? handler(body) : { status: 404, body: { detail: 'Not Found' } };
      return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

export const ids = {
  user: '11111111-1111-4111-8111-111111111111',
  organization: '22222222-2222-4222-8222-222222222222',
  key: '33333333-3333-4333-8333-333333333333',
  colleague: '44444444-4444-4444-8444-444444444444',
};

export function organizationRoutes(permission: 'OWNER' | 'MEMBER'): Record<string, Handler> {
  return {
    '/auth/mode': () => ({ body: { mode: 'local', docs_url: '/docs' } }),
    '/api/users/get-user': () => ({
      body: {
        user: { id: ids.user, name: 'Ada', email: 'ada@example.com' },
        organizations: [{ id: ids.organization, name: 'Acme', created_at: '2026-01-02T03:04:05.000Z', permission }],
      },
    }),
    '/api/organizations/get-info': () => ({
      body: {
        id: ids.organization,
        name: 'Acme',
        created_at: '2026-01-02T03:04:05.000Z',
        users: [
          { id: ids.user, name: 'Ada', email: 'ada@example.com', permission },
          { id: ids.colleague, name: 'Bob', email: 'bob@example.com', permission: 'MEMBER' },
        ],
        api_keys: [{ id: ids.key, name: 'Prod', api_key: 'sift_abcdefghijklmnop', created_at: '2026-01-02T15:04:05.000Z', permission: 'read_only', created_by: 'Ada' }],
        invited_emails: [{ email: 'pending@example.com', permission: 'MEMBER' }],
      },
    }),
    '/billing/status': () => ({ status: 500, body: { detail: 'billing down' } }),
  };
}

/** An error answer with the server's detail. */
export const refusal = (status: number, detail: string) => () => ({ status, body: { detail } });

/** Each test starts signed in, with alerts and logged errors captured, and the network restored after. */
export function signedInEachTest(): void {
  beforeEach(() => {
    localStorage.setItem('sift.session_token', 'token');
    vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.unstubAllGlobals());
}

/** Renders a screen inside the app's real providers (session, organization, queries). */
export const renderInApp = (ui: ReactNode) => render(<AppProviders>{ui}</AppProviders>);
