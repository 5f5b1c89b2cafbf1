import type { BillingStatusResponse } from '@sift/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { CurrentOrganization } from '@/lib/current-organization';
import { BillingScreen } from '@/features/billing/components/billing-screen';

const organizationId = '7b0c6a36-4c1e-4a8f-9a53-0a1f0f0c2b11';
let current: Partial<CurrentOrganization>;

let currentBilling: BillingStatusResponse | null;
vi.mock('@/lib/current-organization', () => ({ useCurrentOrganization: () => current }));
vi.mock('@/features/billing/api/get-billing-status', () => ({
  billingStatusKey: (organizationId: string | null) => ['billing', organizationId],
  useBillingStatus: () => ({ data: currentBilling, isPending: false }),
}));
vi.mock('@/lib/server-info', () => ({ useServerInfo: () => ({ mode: 'local', docs_url: '/docs' }) }));

const billing = (overrides: Partial<BillingStatusResponse> = {}): BillingStatusResponse => ({
  subscription_type: 'none',
  trial_end_date: null,
  current_period_end: null,
  cancel_at: null,
  invoices: [],
  ...overrides,
});

const renderScreen = (status: BillingStatusResponse | null = billing()) => {
  current = { organizationId, status: 'success', permission: 'OWNER' };
  currentBilling = status;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <BillingScreen />
    </QueryClientProvider>,
  );
};

const jsonResponse = (status: number, body: unknown, statusText = '') =>
  new Response(body === undefined ? '' : JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });

const planCard = (name: string) => screen.getByRole('article', { name: `${name} plan` });

beforeEach(() => {
  window.history.replaceState(null, '', '/billing');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Billing screen', () => {
  test('shows the Models, Billing Plans and Billing history sections with every figure of the spec', () => {
    renderScreen();
    expect(screen.getByRole('heading', { name: 'Models' })).toBeTruthy();
    expect(screen.getByText('$0.025 per million tokens')).toBeTruthy();
    expect(screen.getByText('Rate limit 2,000,000 UTF-8 bytes per minute')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Try Now' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get Early Preview' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get in Touch' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Billing Plans' })).toBeTruthy();
    expect(within(planCard('Starter')).getByText('$50/month')).toBeTruthy();
    expect(within(planCard('Starter')).getByText('Free for 2 weeks')).toBeTruthy();
    expect(within(planCard('Starter')).getByText('10,000 pages of OCR')).toBeTruthy();
    expect(within(planCard('Teams')).getByText('$500/month')).toBeTruthy();
    expect(within(planCard('Teams')).getByText('Unlimited storage')).toBeTruthy();
    expect(within(planCard('Enterprise')).getByText('Custom pricing')).toBeTruthy();
    expect(within(planCard('Enterprise')).getByText('99.99% SLA')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Billing history' })).toBeTruthy();
  });

  test('with no plan: Try now on Starter and Teams, Book a call on Enterprise, No results. and no Cancel plan', () => {
    renderScreen();
    expect(within(planCard('Starter')).getByRole('button', { name: 'Try now' })).toHaveProperty('disabled', false);
    expect(within(planCard('Teams')).getByRole('button', { name: 'Try now' })).toHaveProperty('disabled', false);
    expect(within(planCard('Enterprise')).getByRole('link', { name: 'Book a call' })).toBeTruthy();
    expect(screen.getByText('No results.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).toBeNull();
  });

  test('on Starter: its button is disabled, Teams reads Upgrade, invoices are in USD and Cancel plan shows', () => {
    renderScreen(
      billing({
        subscription_type: 'starter',
        trial_end_date: '2026-12-06T03:00:00.000Z',
        invoices: [{ date: '2026-11-22T03:00:00.000Z', subscription_type: 'starter', amount: 0 }],
      }),
    );
    expect(within(planCard('Starter')).getByRole('button', { name: 'Current plan' })).toHaveProperty('disabled', true);
    expect(within(planCard('Starter')).getByText('Free trial until December 6, 2026')).toBeTruthy();
    expect(within(planCard('Teams')).getByRole('button', { name: 'Upgrade' })).toBeTruthy();
    const row = screen.getByRole('row', { name: /November 22, 2026/ });
    expect(within(row).getByText('Starter')).toBeTruthy();
    expect(within(row).getByText('$0.00')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel plan' })).toBeTruthy();
  });

  test('on Teams, Starter reads Downgrade', () => {
    renderScreen(billing({ subscription_type: 'teams' }));
    expect(within(planCard('Starter')).getByRole('button', { name: 'Downgrade' })).toBeTruthy();
    expect(within(planCard('Teams')).getByRole('button', { name: 'Current plan' })).toHaveProperty('disabled', true);
  });

  test('choosing a plan asks for confirmation, then subscribes and goes to the returned redirect_url', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { redirect_url: 'http://localhost/billing/checkout/abc' }));
    vi.stubGlobal('fetch', fetchMock);
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign, search: '' } as Location);
    renderScreen();
    await userEvent.click(within(planCard('Teams')).getByRole('button', { name: 'Try now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Teams Subscription' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost/billing/checkout/abc'));
    expect(fetchMock).toHaveBeenCalledWith('/billing/subscribe', expect.objectContaining({ method: 'POST', body: JSON.stringify({ organization_id: organizationId, subscription_type: 'teams' }) }));
  });

  test('a refused subscription alerts with the server detail', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(403, { detail: 'Only organization owners can change or cancel the billing plan.' }, 'Forbidden')));
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderScreen();
    await userEvent.click(within(planCard('Starter')).getByRole('button', { name: 'Try now' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to subscribe: Only organization owners can change or cancel the billing plan.'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  test('a failed subscription without a detail alerts with the status and status text', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('oops', { status: 502, statusText: 'Bad Gateway' })));
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderScreen();
    await userEvent.click(within(planCard('Starter')).getByRole('button', { name: 'Try now' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to subscribe: Error: 502 - Bad Gateway'));
  });

  test('cancelling asks for confirmation, calls /billing/pause and goes to recent_subscription_type=none', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { message: 'ok' }));
    vi.stubGlobal('fetch', fetchMock);
    renderScreen(billing({ subscription_type: 'teams', current_period_end: '2026-12-22T03:00:00.000Z' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Plan Cancellation' });
    expect(dialog.textContent).toContain('December 22, 2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel plan' }));
    await waitFor(() => expect(window.location.search).toBe('?recent_subscription_type=none'));
    expect(fetchMock).toHaveBeenCalledWith('/billing/pause', expect.objectContaining({ body: JSON.stringify({ organization_id: organizationId }) }));
    expect(await screen.findByRole('dialog', { name: 'Sorry to see you go!' })).toBeTruthy();
  });

  test('a failed cancellation is only logged, with the fallback when there is no message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject('network down')));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderScreen(billing({ subscription_type: 'starter' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel plan' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel plan' }));
    await waitFor(() => expect(log).toHaveBeenCalledWith('Failed to cancel plan'));
    expect(alert).not.toHaveBeenCalled();
    expect(window.location.search).toBe('');
  });

  test('recent_subscription_type shows the thank-you modal; Close removes the parameter', async () => {
    window.history.replaceState(null, '', '/billing?recent_subscription_type=starter');
    renderScreen(billing({ subscription_type: 'starter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Thanks for subscribing!' });
    await userEvent.click(within(dialog).getByTestId('thank-you-close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.search).toBe('');
  });

  test('recent_subscription_type=none reads Sorry to see you go!', async () => {
    window.history.replaceState(null, '', '/billing?recent_subscription_type=none&invite=x');
    renderScreen();
    const dialog = await screen.findByRole('dialog', { name: 'Sorry to see you go!' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(dialog).toBeTruthy();
    expect(window.location.search).toBe('?invite=x');
  });
});
