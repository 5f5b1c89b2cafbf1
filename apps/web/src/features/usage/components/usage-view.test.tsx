import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentOrganization } from '@/lib/current-organization';
import { setSessionToken } from '@/lib/session';
import { UsageView } from '@/features/usage/components/usage-view';

// The SDK client is the only boundary replaced: `post(path)` answers what the server would.
const answers = new Map<string, () => Promise<unknown>>();
const client = { post: vi.fn((path: string, _options: { body: Record<string, unknown> }) => (answers.get(path) ?? (() => Promise.reject(new Error(`unexpected ${path}`))))()) };
vi.mock('@/lib/provider-client', () => ({ createProviderClient: () => client }));

let organization: Partial<CurrentOrganization> & { collectionsList?: string[] };
vi.mock('@/lib/current-organization', () => ({ useCurrentOrganization: () => organization }));
vi.mock('@/lib/collections-list', () => ({ useCollectionsList: () => ({ status: organization.status ?? 'success', collectionsList: organization.collectionsList ?? [] }) }));

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
    await waitFor(() => expect(within(screen.getByRole('button', { name: /^Rerank\b/, pressed: false })).getByTestId('tile-count').textContent).toBe('3'));
    // Days are asked for by the hour and folded into local days (usage-range.ts).
    expect(client.post).toHaveBeenCalledWith('/usage/models/reranker', { body: expect.objectContaining({ aggregation_window: 'hourly' }) });
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
    await waitFor(() => expect(within(screen.getByRole('button', { name: /^Rerank\b/, pressed: false })).getByTestId('tile-count').textContent).toBe('3'));
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
    await waitFor(() => expect(within(screen.getByRole('button', { name: /^Docs\b/, pressed: false })).getByTestId('tile-count').textContent).toBe('3'));
    expect(screen.getAllByRole('figure')).toHaveLength(4);
    await userEvent.click(screen.getByRole('button', { name: /^OCR\b/, pressed: false }));
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
    await userEvent.click(screen.getByRole('combobox', { name: 'Hour' }));
    const hours = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(hours[0]).toBe('12am');
    expect(hours[12]).toBe('12pm');
    expect(hours[23]).toBe('11pm');
    expect(client.post).toHaveBeenLastCalledWith('/usage/models/reranker', { body: expect.objectContaining({ aggregation_window: 'minutely' }) });
  });
});

// The History in two time zones (TZ is set for these tests): the request, the bars, the title and
// the axis are the same local days, and a click drills into the bar under the pointer.
describe.each(['America/Los_Angeles', 'Asia/Kolkata'])('Usage history in %s', (zone) => {
  const originalZone = process.env.TZ;
  const local = (y: number, m: number, d: number, h = 0) => new Date(y, m - 1, d, h).getTime() / 1000;
  beforeEach(() => {
    process.env.TZ = zone;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 22, 17, 30));
    answerAll();
    // Answers like the server: windows of the asked size from start_time, one call in the last.
    answers.set('/usage/models/reranker', async () => {
      const { body } = client.post.mock.calls.filter(([path]) => path === '/usage/models/reranker').at(-1)![1];
      const size = body.aggregation_window === 'hourly' ? 3600 : body.aggregation_window === 'minutely' ? 60 : 86_400;
      const windows = Math.floor(((body.end_time as number) - (body.start_time as number)) / size) + 1;
      const history = Array.from({ length: windows }, (_, k) => ({ window_start: (body.start_time as number) + k * size, stats: { rerank: { count: k === windows - 1 ? 1 : 0, bytes: 0 } } }));
      return { granularity: body.aggregation_window, start_time: body.start_time, end_time: body.end_time, history, totals: { rerank: { count: 1, bytes: 0 } } };
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    process.env.TZ = originalZone;
  });
  const lastRerankBody = () => client.post.mock.calls.filter(([path]) => path === '/usage/models/reranker').at(-1)![1]!.body;
  /** Clicks the chart `fraction` of the way across its plot (48 px of margin and count axis on the left, 68 on the right). */
  function clickChartAt(fraction: number) {
    const chart = screen.getByTestId('usage-chart');
    const width = 48 + 300 + 68;
    chart.getBoundingClientRect = () => ({ left: 0, top: 0, right: width, bottom: 240, width, height: 240, x: 0, y: 0, toJSON: () => ({}) });
    fireEvent.click(chart, { clientX: 48 + 300 * fraction, clientY: 100 });
  }

  it('asks for the 30 local days it shows, titles them and names the time zone', async () => {
    renderView();
    const figure = await screen.findByRole('figure');
    expect(figure.getAttribute('aria-label')).toBe('Rerank · Oct 24 – Nov 22, 2026');
    expect(figure.textContent).toMatch(zone === 'Asia/Kolkata' ? /Time zone: Asia\/(Kolkata|Calcutta)/ : /Time zone: America\/Los_Angeles/);
    expect(lastRerankBody()).toMatchObject({ start_time: local(2026, 10, 24), end_time: local(2026, 11, 23) - 1 });
    await waitFor(() => expect(screen.getByTestId('usage-chart')).toBeTruthy());
  });

  it('a click on the last day, without a hover first, drills into that day; a click on an hour into that hour', async () => {
    renderView();
    await screen.findByTestId('usage-chart');
    clickChartAt(0.99);
    await waitFor(() => expect(screen.getByRole('figure').getAttribute('aria-label')).toBe('Rerank · Nov 22, 2026, by hour'));
    expect(screen.getByRole('button', { name: 'hr' }).getAttribute('aria-pressed')).toBe('true');
    expect(lastRerankBody()).toMatchObject({ start_time: local(2026, 11, 22), end_time: local(2026, 11, 23) - 1, aggregation_window: 'hourly' });
    await screen.findByTestId('usage-chart');
    clickChartAt(18.5 / 24);
    await waitFor(() => expect(screen.getByRole('figure').getAttribute('aria-label')).toBe('Rerank · Nov 22, 2026, 6pm – 7pm, by minute'));
    expect(lastRerankBody()).toMatchObject({ start_time: local(2026, 11, 22, 18), aggregation_window: 'minutely' });
  });

  it('a click in the middle of the range drills into the middle day, not the first', async () => {
    renderView();
    await screen.findByTestId('usage-chart');
    clickChartAt(15.5 / 30);
    await waitFor(() => expect(screen.getByRole('figure').getAttribute('aria-label')).toBe('Rerank · Nov 8, 2026, by hour'));
  });
});
