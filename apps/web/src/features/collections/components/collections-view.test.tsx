import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentOrganization } from '@/lib/current-organization';
import { CollectionsView } from '@/features/collections/components/collections-view';
import { chooseOption } from '@/test/choose-option';

// The SDK client is the only boundary replaced: each method answers what the server would.
const client = {
  status: { getStatus: vi.fn() },
  documents: { getInfoList: vi.fn(), getInfo: vi.fn(), getPageInfo: vi.fn(), add: vi.fn() },
  collections: { add: vi.fn() },
};
vi.mock('@/lib/provider-client', () => ({ createProviderClient: () => client }));

let organization: Partial<CurrentOrganization> & { collectionsList?: string[] };
vi.mock('@/lib/current-organization', () => ({ useCurrentOrganization: () => organization }));
vi.mock('@/lib/collections-list', () => ({ useCollectionsList: () => ({ status: organization.status ?? 'success', collectionsList: organization.collectionsList ?? [] }) }));

const ready: Partial<CurrentOrganization> & { collectionsList?: string[] } = {
  status: 'success',
  error: null,
  organizationId: 'org-1',
  workingKey: 'sift_key',
  writeKey: 'sift_key',
  permission: 'OWNER',
  collectionsList: ['handbook', 'manuals'],
};

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const doc = (path: string, index_status: string, extra: Record<string, unknown> = {}) => ({
  id: path,
  collection_name: 'handbook',
  path,
  created_at: minutesAgo(5),
  size: 2048,
  metadata: {},
  index_status,
  num_pages: 1,
  file_url: '',
  ...extra,
});

const status = (overrides: Record<string, number> = {}) => ({
  num_documents: 3,
  num_parsing_documents: 0,
  num_indexing_documents: 0,
  num_indexed_documents: 2,
  num_failed_documents: 1,
  num_indexed_bytes: 0,
  ...overrides,
});

function renderView() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <CollectionsView />
    </QueryClientProvider>,
  );
}

async function choose(name = 'handbook') {
  const user = userEvent.setup();
  await chooseOption(user, screen.getByRole('combobox', { name: 'Collection' }), name);
  return user;
}

beforeEach(() => {
  organization = { ...ready };
  vi.clearAllMocks();
  client.status.getStatus.mockResolvedValue(status());
  client.documents.getInfoList.mockResolvedValue({
    documents: [
      doc('guide.txt', 'indexed', { metadata: { team: 'keepers' } }),
      doc('notes.md', 'indexed', { size: 300 }),
      doc('scan.pdf', 'parsing_failed'),
    ],
  });
  client.documents.getInfo.mockResolvedValue({ document: { ...doc('guide.txt', 'indexed'), content: 'Trim the wick.' } });
  client.documents.getPageInfo.mockResolvedValue({ page: { page_index: 0, image_url: null } });
});

describe('CollectionsView', () => {
  it('before a collection is chosen: the messages and the disabled prefix box', () => {
    renderView();
    expect(screen.getByRole('combobox', { name: 'Collection' }).textContent).toBe('Select a Collection');
    // One pane until a collection is chosen, and no Show Metadata with nothing to show.
    expect(screen.getAllByText('Select a collection to view files')).toHaveLength(1);
    expect(screen.queryByRole('switch', { name: 'Show Metadata' })).toBeNull();
    const prefix = screen.getByPlaceholderText('Select a Collection first.') as HTMLInputElement;
    expect(prefix.disabled).toBe(true);
  });

  it('says so when there is no API key, and offers an owner the key that fixes it', () => {
    organization = { ...ready, workingKey: null, writeKey: null };
    renderView();
    expect(screen.getByText('No API Key is available. Please create an API Key!')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'New Collection' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('This organization has no API key, so the dashboard cannot add collections or files.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add a key with All Permissions' })).toBeTruthy();
  });

  it('with Read Only keys only, New Collection is off and one sentence says why; a member is told whom to ask', () => {
    organization = { ...ready, writeKey: null, permission: 'MEMBER' };
    renderView();
    const newCollection = screen.getByRole('button', { name: 'New Collection' }) as HTMLButtonElement;
    expect(newCollection.disabled).toBe(true);
    expect(document.getElementById(newCollection.getAttribute('aria-describedby')!)?.textContent).toBe(
      "This organization's API keys are all Read Only, so the dashboard cannot add collections or files with them. Ask an owner of the organization for a key with All Permissions.",
    );
    expect(screen.queryByRole('button', { name: 'Add a key with All Permissions' })).toBeNull();
  });

  it('offers New Collection, not the Search picker\'s upload advice, when there is no collection yet', () => {
    organization = { ...ready, collectionsList: [] };
    renderView();
    expect(screen.getByText('No collections yet: create one with New Collection.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'New Collection' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the counters and the list with sizes, relative times and status dots', async () => {
    renderView();
    await choose();
    await waitFor(() => expect(screen.getByText('guide.txt')).toBeTruthy());
    const counters = screen.getByLabelText('Collection status');
    expect(within(counters).getByText('Docs').nextElementSibling?.textContent).toBe('3');
    expect(within(counters).getByText('Indexed').nextElementSibling?.textContent).toBe('2');
    expect(within(counters).getByText('Failed').nextElementSibling?.textContent).toBe('1');
    const table = screen.getByRole('table', { name: 'Documents' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Size', 'Upload Date']);
    const guide = table.querySelector('tr[data-path="guide.txt"]')!;
    expect(guide.textContent).toContain('2.0 KB');
    expect(guide.textContent).toContain('5 min ago');
    expect(table.querySelector('tr[data-path="notes.md"]')!.textContent).toContain('300 B');
    expect(within(table).getAllByRole('img', { name: 'Indexed' })).toHaveLength(2);
    expect(within(table).getByRole('img', { name: 'Parsing failed' })).toBeTruthy();
    expect(screen.getByPlaceholderText('Search files by prefix...')).toBeTruthy();
    expect(screen.getByText('Select a file to view its contents')).toBeTruthy();
  });

  it('shows the content of an indexed file, its metadata as JSON, and the failure message of a failed one', async () => {
    renderView();
    const user = await choose();
    await user.click(await screen.findByRole('button', { name: /guide\.txt/ }));
    expect(await screen.findByText('Trim the wick.')).toBeTruthy();
    expect(client.documents.getInfo).toHaveBeenCalledWith({ collection_name: 'handbook', path: 'guide.txt', include_content: true });
    await user.click(screen.getByRole('switch', { name: 'Show Metadata' }));
    expect(screen.getByLabelText('Document metadata').textContent).toBe(JSON.stringify({ team: 'keepers' }, null, 2));
    await user.click(screen.getByRole('button', { name: /notes\.md/ }));
    expect(screen.getByText('No metadata available')).toBeTruthy();
    await user.click(screen.getByRole('switch', { name: 'Show Metadata' }));
    await user.click(screen.getByRole('button', { name: /scan\.pdf/ }));
    expect(screen.getByText('Document parsing failed. Please check the file format and try uploading again.')).toBeTruthy();
  });

  it("shows a PDF's page images beside its text", async () => {
    client.documents.getInfoList.mockResolvedValue({ documents: [doc('manual.pdf', 'indexed', { num_pages: 2 })] });
    client.documents.getInfo.mockResolvedValue({ document: { ...doc('manual.pdf', 'indexed', { num_pages: 2 }), content: 'Page one. Page two.' } });
    client.documents.getPageInfo.mockImplementation(async ({ page_index }: { page_index: number }) => ({
      page: { page_index, image_url: `https://sift.test/v1/documents/get-page-image?token=p${page_index}` },
    }));
    renderView();
    const user = await choose();
    await user.click(await screen.findByRole('button', { name: /manual\.pdf/ }));
    const images = within(await screen.findByRole('list', { name: 'Page images' })).getAllByRole('img');
    expect(images.map((image) => [image.getAttribute('alt'), image.getAttribute('src')])).toEqual([
      ['Page 1', 'https://sift.test/v1/documents/get-page-image?token=p0'],
      ['Page 2', 'https://sift.test/v1/documents/get-page-image?token=p1'],
    ]);
    expect(screen.getByLabelText('Document content').textContent).toBe('Page one. Page two.');
  });

  it('shows no page images for a text document', async () => {
    renderView();
    const user = await choose();
    await user.click(await screen.findByRole('button', { name: /guide\.txt/ }));
    expect(await screen.findByText('Trim the wick.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Page images' })).toBeNull();
  });

  it('content errors: not found, any other failure, empty content', async () => {
    const notFound = Object.assign(new Error('404 {}'), { status: 404, error: { detail: 'Not found' } });
    client.documents.getInfo.mockRejectedValueOnce(notFound);
    renderView();
    const user = await choose();
    await user.click(await screen.findByRole('button', { name: /guide\.txt/ }));
    expect(await screen.findByText('Document Not Found')).toBeTruthy();

    client.documents.getInfo.mockRejectedValueOnce(new Error('Request timed out.'));
    await user.click(screen.getByRole('button', { name: /notes\.md/ }));
    expect(await screen.findByText('Error loading document content: Request timed out.')).toBeTruthy();
  });

  it("says 'Could not fetch document content' for empty content", async () => {
    client.documents.getInfo.mockResolvedValue({ document: { ...doc('guide.txt', 'indexed'), content: '' } });
    renderView();
    const user = await choose();
    await user.click(await screen.findByRole('button', { name: /guide\.txt/ }));
    expect(await screen.findByText('Could not fetch document content')).toBeTruthy();
  });

  it('shows the list and status failures', async () => {
    client.status.getStatus.mockRejectedValue(new Error('down'));
    client.documents.getInfoList.mockRejectedValue(new Error('Connection error.'));
    renderView();
    await choose();
    expect(await screen.findByText('Fetching collection failed...')).toBeTruthy();
    expect(await screen.findByText('Error loading documents: Connection error.')).toBeTruthy();
    // One message for one failure.
    expect(screen.queryByText('Document Search failed...')).toBeNull();
  });

  it('a failed prefix search shows one message and none of the previous rows', async () => {
    client.documents.getInfoList.mockResolvedValueOnce({ documents: [doc('guide.txt', 'indexed')] }).mockRejectedValue(new Error('Connection error.'));
    renderView();
    const user = await choose();
    expect(await screen.findByText('guide.txt')).toBeTruthy();
    await user.type(screen.getByLabelText('Search files by prefix'), 'gu');
    expect(await screen.findByText('Document Search failed...')).toBeTruthy();
    expect(screen.queryByText('guide.txt')).toBeNull();
    expect(screen.queryByText(/Error loading documents/)).toBeNull();
  });

  it('reads every page of the cursor, asking for paths after the last one', async () => {
    const first = Array.from({ length: 1024 }, (_, i) => doc(`f${String(i).padStart(4, '0')}.txt`, 'indexed'));
    client.documents.getInfoList.mockResolvedValueOnce({ documents: first }).mockResolvedValueOnce({ documents: [doc('z.txt', 'indexed')] });
    renderView();
    await choose();
    await waitFor(() => expect(screen.getByText('z.txt')).toBeTruthy());
    expect(client.documents.getInfoList).toHaveBeenCalledTimes(2);
    expect(client.documents.getInfoList.mock.calls[1]![0]).toEqual({ collection_name: 'handbook', path_prefix: null, limit: 1024, path_gt: 'f1023.txt' });
    expect(screen.getByRole('table', { name: 'Documents' }).querySelectorAll('tbody tr')).toHaveLength(1025);
  });

  it('a prefix search narrows the list and clears a selection that is no longer listed; another collection keeps the metadata flag', async () => {
    renderView();
    const user = await choose();
    await user.click(await screen.findByRole('button', { name: /guide\.txt/ }));
    await user.click(screen.getByRole('switch', { name: 'Show Metadata' }));
    client.documents.getInfoList.mockResolvedValue({ documents: [doc('notes.md', 'indexed')] });
    await user.type(screen.getByPlaceholderText('Search files by prefix...'), 'no');
    await waitFor(() => expect(client.documents.getInfoList).toHaveBeenLastCalledWith({ collection_name: 'handbook', path_prefix: 'no', limit: 1024 }));
    expect(await screen.findByText('Select a file to view its contents')).toBeTruthy();

    await chooseOption(user, screen.getByRole('combobox', { name: 'Collection' }), 'manuals');
    expect((screen.getByPlaceholderText('Search files by prefix...') as HTMLInputElement).value).toBe('');
    await user.click(await screen.findByRole('button', { name: /notes\.md/ }));
    expect((screen.getByRole('switch', { name: 'Show Metadata' }) as HTMLInputElement).checked).toBe(true);
  });

  it('uploads several files, text as text and others as base64, with a progress bar and an error per file', async () => {
    client.documents.add.mockImplementation(async ({ path }: { path: string }) => {
      if (path === 'b.pdf') throw Object.assign(new Error('403 {}'), { status: 403, error: { detail: 'This API key is read-only.' } });
      return { message: 'Success!' };
    });
    renderView();
    const user = await choose();
    await user.upload(screen.getByLabelText('Upload files'), [
      new File(['hello'], 'a.txt', { type: 'text/plain' }),
      new File([new Uint8Array([1, 2, 3])], 'b.pdf', { type: 'application/pdf' }),
    ]);
    await waitFor(() => expect(document.querySelector('[data-upload="b.pdf"]')?.getAttribute('data-state')).toBe('error'));
    expect(document.querySelector('[data-upload="a.txt"]')?.getAttribute('data-state')).toBe('done');
    expect(client.documents.add).toHaveBeenCalledWith({ collection_name: 'handbook', path: 'a.txt', content: { type: 'text', text: 'hello' }, overwrite: false });
    expect(client.documents.add).toHaveBeenCalledWith({ collection_name: 'handbook', path: 'b.pdf', content: { type: 'auto', base64_data: 'AQID' }, overwrite: false });
    expect(screen.getByRole('progressbar', { name: 'Upload of a.txt' }).getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByText('403 This API key is read-only.')).toBeTruthy();
  });

  it('takes files dropped on the drop zone', async () => {
    client.documents.add.mockResolvedValue({ message: 'Success!' });
    renderView();
    await choose();
    const file = new File(['# Title'], 'dropped.md', { type: 'text/markdown' });
    fireEvent.drop(screen.getByTestId('upload-dropzone'), { dataTransfer: { files: [file] } });
    await waitFor(() => expect(document.querySelector('[data-upload="dropped.md"]')?.getAttribute('data-state')).toBe('done'));
    expect(client.documents.add).toHaveBeenCalledWith({ collection_name: 'handbook', path: 'dropped.md', content: { type: 'text', text: '# Title' }, overwrite: false });
  });
});
