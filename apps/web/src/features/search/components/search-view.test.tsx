import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentOrganization } from '@/lib/current-organization';
import { SearchView } from './search-view';
import { chooseOption } from '@/test/choose-option';

// The SDK client is the only boundary replaced: each method answers what the server would.
const client = {
  queries: { topDocuments: vi.fn(), topPages: vi.fn(), topSnippets: vi.fn() },
};
vi.mock('@/lib/provider-client', () => ({ createProviderClient: () => client }));

let organization: Partial<CurrentOrganization>;
vi.mock('@/lib/current-organization', () => ({ useCurrentOrganization: () => organization }));

const ready: Partial<CurrentOrganization> = {
  status: 'success',
  error: null,
  organizationId: 'org-1',
  workingKey: 'sift_key',
  collectionsList: ['handbook', 'manuals'],
};

function answerSearch() {
  client.queries.topDocuments.mockResolvedValue({ results: [{ path: 'guide.txt', score: 0.876, file_url: '', metadata: null }] });
  client.queries.topPages.mockResolvedValue({
    document_results: [],
    results: [{ path: 'guide.txt', page_index: 0, score: 0.5, content: 'Page text about lamps', image_url: null }],
  });
  client.queries.topSnippets.mockImplementation(async ({ precise_responses }: { precise_responses: boolean }) => ({
    document_results: [],
    results: precise_responses
      ? [
          { path: 'guide.txt', page_span: [0, 1], start_index: 4, end_index: 40, score: 0.9, content: 'fine one' },
          { path: 'notes.md', page_span: [1, 3], start_index: 100, end_index: 150, score: 0.25, content: 'fine two' },
        ]
      : [{ path: 'guide.txt', page_span: [0, 1], start_index: 0, end_index: 200, score: 0.7, content: 'coarse content' }],
  }));
}

async function chooseAndSearch(query = 'lamp') {
  const user = userEvent.setup();
  await chooseOption(user, screen.getByRole('combobox', { name: 'Collection' }), 'handbook');
  await user.type(screen.getByPlaceholderText('Search...'), `${query}{Enter}`);
  return user;
}

beforeEach(() => {
  organization = { ...ready };
  vi.clearAllMocks();
});

describe('SearchView', () => {
  it('shows the picker messages: loading, no API key, no collection', () => {
    organization = { ...ready, status: 'loading' };
    const { rerender } = render(<SearchView />);
    expect(screen.getByText('Loading collections list...')).toBeTruthy();
    organization = { ...ready, workingKey: null };
    rerender(<SearchView />);
    expect(screen.getByText('No API Key is available. Please create an API Key!')).toBeTruthy();
    expect((screen.getByLabelText('Search query') as HTMLInputElement).disabled).toBe(true);
    organization = { ...ready, collectionsList: [] };
    rerender(<SearchView />);
    expect(screen.getByText('You have to upload a collection first! Check out the documentation to learn how.')).toBeTruthy();
  });

  it('asks for a collection, then for Enter; nothing runs on a blank query', async () => {
    render(<SearchView />);
    expect(screen.getAllByText('Please select a collection').length).toBeGreaterThan(0);
    const user = userEvent.setup();
    await chooseOption(user, screen.getByRole('combobox', { name: 'Collection' }), 'handbook');
    expect(screen.getByText('Press enter to begin searching')).toBeTruthy();
    await user.type(screen.getByPlaceholderText('Search...'), '   {Enter}');
    expect(client.queries.topDocuments).not.toHaveBeenCalled();
  });

  it('runs the four queries with k = 25 and shows each tab with two-decimal scores', async () => {
    answerSearch();
    render(<SearchView />);
    const user = await chooseAndSearch('  lamp  ');
    const base = { collection_name: 'handbook', query: 'lamp', k: 25 };
    expect(client.queries.topDocuments).toHaveBeenCalledWith(base, expect.anything());
    expect(client.queries.topPages).toHaveBeenCalledWith({ ...base, include_content: true }, expect.anything());
    expect(client.queries.topSnippets).toHaveBeenCalledWith({ ...base, precise_responses: false }, expect.anything());
    expect(client.queries.topSnippets).toHaveBeenCalledWith({ ...base, precise_responses: true }, expect.anything());

    const documents = await screen.findByRole('list', { name: 'Top Documents' });
    expect(within(documents).getByText('guide.txt')).toBeTruthy();
    expect(documents.textContent).toContain('Score 0.88');

    await user.click(screen.getByRole('tab', { name: 'Top Pages' }));
    const pageRow = screen.getByRole('button', { expanded: false });
    expect(pageRow.textContent).toContain('Page 1');
    expect(screen.queryByText('Page text about lamps')).toBeNull();
    await user.click(pageRow);
    expect(screen.getByText('Page text about lamps')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Top Coarse Snippets' }));
    const coarse = screen.getByRole('list', { name: 'Top Coarse Snippets' });
    expect(coarse.textContent).toContain('Pages 1 - 1');
    expect(coarse.textContent).toContain('Span [0, 200]');
    expect(within(coarse).getByRole('button').getAttribute('aria-expanded')).toBe('false');

    await user.click(screen.getByRole('tab', { name: 'Top Fine Snippets' }));
    const fine = screen.getByRole('list', { name: 'Top Fine Snippets' });
    expect(within(fine).getAllByRole('button').map((b) => b.getAttribute('aria-expanded'))).toEqual(['true', 'true']);
    expect(fine.textContent).toContain('Pages 2 - 3');
    expect(fine.textContent).toContain('Span [100, 150]');
    expect(within(fine).getByText('fine two')).toBeTruthy();
  });

  it("says 'Loading results...' while the queries run and 'No results found' for an empty tab", async () => {
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    client.queries.topDocuments.mockImplementation(async () => (await gate, { results: [] }));
    client.queries.topPages.mockResolvedValue({ document_results: [], results: [] });
    client.queries.topSnippets.mockResolvedValue({ document_results: [], results: [] });
    render(<SearchView />);
    await chooseAndSearch();
    expect(screen.getByText('Loading results...')).toBeTruthy();
    finish();
    expect(await screen.findByText('No results found')).toBeTruthy();
  });

  it('shows the search failure message of spec §8 with the server detail', async () => {
    answerSearch();
    client.queries.topPages.mockRejectedValue(Object.assign(new Error('403 {}'), { status: 403, error: { detail: 'Forbidden key' } }));
    render(<SearchView />);
    await chooseAndSearch();
    expect(
      await screen.findByText(
        'Search failed. Please check your internet connection or contact support if the problem persists. Error: 403 Forbidden key',
      ),
    ).toBeTruthy();
  });

  it('choosing another collection clears the previous result', async () => {
    answerSearch();
    render(<SearchView />);
    const user = await chooseAndSearch();
    await screen.findByRole('list', { name: 'Top Documents' });
    await chooseOption(user, screen.getByRole('combobox', { name: 'Collection' }), 'manuals');
    expect(screen.queryByRole('list', { name: 'Top Documents' })).toBeNull();
    expect(screen.getByText('Press enter to begin searching')).toBeTruthy();
  });

  it('the send button runs the search too', async () => {
    answerSearch();
    render(<SearchView />);
    const user = userEvent.setup();
    await chooseOption(user, screen.getByRole('combobox', { name: 'Collection' }), 'handbook');
    await user.type(screen.getByPlaceholderText('Search...'), 'lamp');
    await user.click(screen.getByRole('button', { name: 'Send search' }));
    await waitFor(() => expect(client.queries.topDocuments).toHaveBeenCalledTimes(1));
  });
});
