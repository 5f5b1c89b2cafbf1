import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentOrganization } from '@/lib/current-organization';
import { setSessionToken } from '@/lib/session';
import { UsageView } from './usage-view';

// The SDK client is the only boundary replaced: `post(path)` answers what the server would.
const answers = new Map<string, () => Promise<unknown>>();
const client = { post: vi.fn((path: string, _options: { body: Record<string, unknown> }) => (answers.get(path) ?? (() => Promise.reject(new Error(`unexpected ${path}`))))()) };
vi.mock('@/lib/provider-client', () => ({ createProviderClient: () => client }));

let organization: Partial<CurrentOrganization>;
vi.mock('@/lib/current-organization', () => ({ useCurrentOrganization: () => organization }));

// jsdom has no layout: charts get a size from a stubbed ResizeObserver-free container.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const amount = (count: number, bytes: number) => ({ count, bytes, billable_units: count });
const zeros = { docs: amount(0, 0), ocr: amount(0, 0), indexed: amount(0, 0), queries: amount(0, 0) };
const history = (metrics: string[], windowStart: number | string = 1_700_000_000) => ({
  granularity: 'daily',
  start_time: 1_700_000_000,
  end_time: 1_700_086_399,
  history: [{ window_start: windowStart, stats: Object.fromEntries(metrics.map((m) => [m, { count: 3, bytes: 1500 }])) }],
  totals: Object.fromEntries(metrics.map((m) => [m, { count: 3, bytes: 1500 }])),
});

function answerAll() {
  answers.set('/usage/counters', async () => ({ all_time: { ...zeros, docs: amount(12, 2_500_000) }, billing_cycle: zeros }));
  answers.set('/usage/models/counters', async () => ({ all_time: { rerank: amount(42, 7000) }, billing_cycle: { rerank: amount(40, 6000) } }));
  answers.set('/usage/documents', async () => history(['docs', 'ocr', 'indexed']));
  answers.set('/usage/queries', async () => history(['queries']));
  answers.set('/usage/models/reranker', async () => history(['rerank']));
}

function renderView() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <UsageView />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  answers.clear();
  client.post.mockClear();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  setSessionToken('session');
  organization = { organizationId: 'org-1', workingKey: 'sift_key', collectionsList: ['alpha', 'beta'] };
});

describe('Usage screen', () => {
  it('opens on the Models tab with the Rerank summary and its history tile', async () => {
    answerAll();
    renderView();
    expect(screen.getByRole('tab', { name: 'Models' }).getAttribute('aria-selected')).toBe('true');
    const card = await screen.findByRole('region', { name: 'Rerank summary' });
    expect((card).textContent).toContain('All time42');
    expect((card).textContent).toContain('Billing cycle40');
    await waitFor(() => expect(within(screen.getByRole('button', { name: 'Rerank tile' })).getByTestId('tile-count').textContent).toBe('3'));
    expect(client.post).toHaveBeenCalledWith('/usage/models/reranker', { body: expect.objectContaining({ aggregation_window: 'daily' }) });
    expect(client.post.mock.calls.find(([path]) => path === '/usage/models/reranker')![1]!.body).not.toHaveProperty('collection_names');
  });

  it('shows four skeleton cards while the summary loads, then zeros when there is no data', async () => {
    answerAll();
    let release!: () => void;
    answers.set('/usage/counters', () => new Promise((resolve) => (release = () => resolve({ all_time: zeros, billing_cycle: zeros }))));
    renderView();
    await userEvent.click(screen.getByRole('tab', { name: 'Search API' }));
    expect(screen.getAllByTestId('summary-skeleton')).toHaveLength(4);
    await waitFor(() => expect(release).toBeTypeOf('function'));
    release();
    const docs = await screen.findByRole('region', { name: 'Docs summary' });
    expect((docs).textContent).toContain('All time00 BBilling cycle00 B');
    expect((screen.getByRole('region', { name: 'Queries summary' })).textContent).toContain('All time00 B');
  });

  it('accepts window_start as a numeric string', async () => {
    answerAll();
    answers.set('/usage/models/reranker', async () => history(['rerank'], '1700000000'));
    renderView();
    await waitFor(() => expect(within(screen.getByRole('button', { name: 'Rerank tile' })).getByTestId('tile-count').textContent).toBe('3'));
  });

  it('refuses a history whose window_start is not a timestamp: Failed to load usage data plus the message', async () => {
    answerAll();
    answers.set('/usage/documents', async () => history(['docs', 'ocr', 'indexed'], 'yesterday'));
    renderView();
    await userEvent.click(screen.getByRole('tab', { name: 'Search API' }));
    const alert = await screen.findByRole('alert');
    expect((alert).textContent).toContain('Failed to load usage data');
    expect((alert).textContent).toContain('Invalid usage history response format: history.0.window_start: window_start is not a valid timestamp: "yesterday"');
  });

  it('names a failed call: Failed to fetch models history with the status and detail', async () => {
    answerAll();
    answers.set('/usage/models/reranker', () => Promise.reject(Object.assign(new Error('boom'), { status: 500, error: { detail: 'Internal server error' } })));
    renderView();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Failed to load models dataFailed to fetch models history: 500 Internal server error');
  });

  it('says so when the organization has no API key', async () => {
    organization = { ...organization, workingKey: null };
    renderView();
    const alert = await screen.findByRole('alert');
    expect((alert).textContent).toContain('Failed to load models data');
    expect((alert).textContent).toContain('No API key configured for this organization');
    expect(client.post).not.toHaveBeenCalled();
  });

  it('says Not authenticated without a session', async () => {
    localStorage.clear();
    renderView();
    expect((await screen.findByRole('alert')).textContent).toContain('Not authenticated');
  });

  it('tiles filter the charts and Show all clears the filter', async () => {
    answerAll();
    renderView();
    await userEvent.click(screen.getByRole('tab', { name: 'Search API' }));
    await waitFor(() => expect(within(screen.getByRole('button', { name: 'Docs tile' })).getByTestId('tile-count').textContent).toBe('3'));
    expect(screen.getAllByRole('figure')).toHaveLength(4);
    await userEvent.click(screen.getByRole('button', { name: 'OCR tile' }));
    expect(screen.getAllByRole('figure').map((f) => f.getAttribute('aria-label')?.split(' ·')[0])).toEqual(['OCR']);
    await userEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(screen.getAllByRole('figure')).toHaveLength(4);
  });

  it('sends the chosen collections, an empty list when none, and omits the list for All', async () => {
    answerAll();
    renderView();
    await userEvent.click(screen.getByRole('tab', { name: 'Search API' }));
    const lastBody = () => client.post.mock.calls.filter(([path]) => path === '/usage/documents').at(-1)![1]!.body;
    expect(lastBody()).not.toHaveProperty('collection_names');
    await userEvent.click(screen.getByRole('button', { name: 'All Collections' }));
    await userEvent.click(screen.getByLabelText('beta'));
    expect(screen.getByRole('button', { name: 'beta' })).toBeTruthy();
    expect(lastBody().collection_names).toEqual(['beta']);
    await userEvent.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(screen.getByRole('button', { name: 'Please select a collection' })).toBeTruthy();
    expect(lastBody().collection_names).toEqual([]);
    await userEvent.click(document.body);
    expect(screen.queryByRole('group', { name: 'Collections' })).toBeNull();
  });

  it('says No collections available when the organization has none', async () => {
    answerAll();
    organization = { ...organization, collectionsList: [] };
    renderView();
    await userEvent.click(screen.getByRole('tab', { name: 'Search API' }));
    await userEvent.click(screen.getByRole('button', { name: 'All Collections' }));
    expect(screen.getByText('No collections available')).toBeTruthy();
  });

  it('the granularity toggle reads day, hr, minute; minute adds the hour dropdown from 12am to 11pm', async () => {
    answerAll();
    renderView();
    expect(screen.getByRole('button', { name: 'day' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByLabelText('Start date').getAttribute('type')).toBe('date');
    await userEvent.click(screen.getByRole('button', { name: 'minute' }));
    const hours = within(screen.getByLabelText('Hour')).getAllByRole('option').map((o) => o.textContent);
    expect(hours[0]).toBe('12am');
    expect(hours[12]).toBe('12pm');
    expect(hours[23]).toBe('11pm');
    expect(client.post).toHaveBeenLastCalledWith('/usage/models/reranker', { body: expect.objectContaining({ aggregation_window: 'minutely' }) });
  });
});
