import { expect, test } from '@playwright/test';
import { bootstrap, choose, dashboardCall, openSignedIn, providerCall } from './fixtures';

/** Each test signs up a new person, so repeated runs on one database stay apart. */
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const files = [
  {
    name: 'alpha-guide.txt',
    mimeType: 'text/plain',
    text: 'The alpha guide explains how the lighthouse keeper trims the lamp wick every evening. Lighthouse maintenance keeps ships safe.',
  },
  {
    name: 'alpha-notes.md',
    mimeType: 'text/markdown',
    text: '# Notes\n\nThe keeper logs the weather and the lighthouse lamp hours in a notebook.\n',
  },
  {
    name: 'beta-report.txt',
    mimeType: 'text/plain',
    text: 'A beta report on harbour traffic: ferries, tugs and fishing boats.',
  },
];

test('uploading files on Collections, watching them index, browsing by prefix and metadata, then searching them in four tabs', async ({ page }) => {
  const { session_token, api_key } = bootstrap(`curie-${unique()}@example.com`, 'Radium Labs', 'Marie Curie');
  await openSignedIn(page, session_token, '/collections');

  // Nothing chosen yet.
  const visible = page.locator('[data-screen="collections"]');
  await expect(visible.getByText('Select a collection to view files').first()).toBeVisible();
  await expect(visible.getByPlaceholder('Select a Collection first.')).toBeDisabled();

  // Create a collection from the screen.
  await visible.getByRole('button', { name: 'New Collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Collection' });
  await dialog.getByLabel('Collection Name').fill('  lighthouse  ');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(visible.getByRole('combobox', { name: 'Collection' })).toHaveText('lighthouse');

  // Upload three files at once through the file picker; each gets its own finished progress bar.
  await visible.getByLabel('Upload files', { exact: true }).setInputFiles(files.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: Buffer.from(f.text) })));
  for (const f of files) {
    await expect(visible.getByRole('progressbar', { name: `Upload of ${f.name}` })).toHaveAttribute('aria-valuenow', '100');
    await expect(visible.locator(`[data-upload="${f.name}"]`)).toHaveAttribute('data-state', 'done');
  }
  // One more document with metadata, added through the API.
  const added = await providerCall(api_key, '/documents/add-document', {
    collection_name: 'lighthouse',
    path: 'alpha-policy.txt',
    content: { type: 'text', text: 'Policy: the lighthouse lamp must be lit from dusk to dawn.' },
    metadata: { team: 'keepers', 'list:tags': ['safety', 'night'] },
  });
  expect(added.status).toBe(201);

  // Statuses reach indexed: the counters and each row's dot.
  const counter = (label: string) => visible.locator(`[data-counter="${label}"]`);
  await expect(counter('Docs')).toHaveText('4', { timeout: 30_000 });
  await expect(counter('Indexed')).toHaveText('4', { timeout: 30_000 });
  await expect(counter('Parsing')).toHaveText('0');
  await expect(counter('Indexing')).toHaveText('0');
  await expect(counter('Failed')).toHaveText('0');
  const table = visible.getByRole('table', { name: 'Documents' });
  await expect(table.getByRole('columnheader')).toHaveText(['Name', 'Size', 'Upload Date']);
  await expect(table.locator('tbody tr')).toHaveCount(4);
  await expect(table.locator('[data-status="indexed"]')).toHaveCount(4, { timeout: 30_000 });
  const guideRow = table.locator('tr[data-path="alpha-guide.txt"]');
  await expect(guideRow.locator('td').nth(1)).toHaveText(`${Buffer.byteLength(files[0]!.text)} B`);
  await expect(guideRow.locator('td').nth(2)).toHaveText('0 min ago');

  // Prefix search narrows the list (sorted by path).
  await visible.getByPlaceholder('Search files by prefix...').fill('alpha');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table.locator('tbody tr[data-path^="alpha-"]')).toHaveCount(3);

  // Select a file: its content shows; with Show Metadata its metadata as JSON, or the empty message.
  await expect(visible.getByText('Select a file to view its contents')).toBeVisible();
  await guideRow.getByRole('button').press('Enter');
  await expect(visible.getByLabel('Document content')).toContainText('lighthouse keeper trims the lamp wick');
  await visible.getByRole('switch', { name: 'Show Metadata' }).check();
  await expect(visible.getByText('No metadata available')).toBeVisible();
  await table.locator('tr[data-path="alpha-policy.txt"]').click();
  const metadata = visible.getByLabel('Document metadata');
  await expect(metadata).toContainText('"team": "keepers"');
  await expect(metadata).toContainText('"safety"');
  await visible.getByRole('switch', { name: 'Show Metadata' }).uncheck();
  await expect(visible.getByLabel('Document content')).toContainText('lit from dusk to dawn');

  // A prefix that excludes the selected file clears the selection.
  await visible.getByPlaceholder('Search files by prefix...').fill('beta');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(visible.getByText('Select a file to view its contents')).toBeVisible();

  // Search: pick the collection, query it, read the four tabs.
  await page.getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search/);
  const search = page.locator('[data-screen="search"]');
  await expect(search.getByText('Please select a collection').last()).toBeVisible();
  await choose(page, search.getByRole('combobox', { name: 'Collection' }), 'lighthouse');
  await expect(search.getByText('Press enter to begin searching')).toBeVisible();
  const box = search.getByPlaceholder('Search...');
  await box.fill('lighthouse lamp');
  await box.press('Enter');

  const documentsTab = search.getByRole('tabpanel');
  await expect(documentsTab.locator('[data-result-path]').first()).toBeVisible();
  const documentRows = documentsTab.locator('[data-result-path]');
  expect(await documentRows.count()).toBeGreaterThanOrEqual(3);
  await expect(documentRows.first()).toContainText(/Score \d\.\d\d/);
  await expect(documentsTab.locator('[data-result-path="beta-report.txt"]')).toHaveCount(0);

  await search.getByRole('tab', { name: 'Top Pages' }).click();
  const pages = search.getByRole('tabpanel');
  const firstPage = pages.locator('[data-result-path]').first();
  await expect(firstPage).toContainText('Page 1');
  await expect(firstPage).toContainText(/Score \d\.\d\d/);
  await expect(firstPage.getByRole('button')).toHaveAttribute('aria-expanded', 'false');
  await firstPage.getByRole('button').press('Enter');
  await expect(firstPage.getByRole('button')).toHaveAttribute('aria-expanded', 'true');
  await expect(firstPage.getByTestId('result-content')).toContainText(/lighthouse/i);

  await search.getByRole('tab', { name: 'Top Coarse Snippets' }).click();
  const coarse = search.getByRole('tabpanel').locator('[data-result-path]').first();
  await expect(coarse).toContainText('Pages 1 - 1');
  await expect(coarse).toContainText(/Span \[\d+, \d+\]/);
  await expect(coarse.getByRole('button')).toHaveAttribute('aria-expanded', 'false');
  await coarse.getByRole('button').click();
  await expect(coarse.getByTestId('result-content')).toContainText(/lighthouse/i);

  await search.getByRole('tab', { name: 'Top Fine Snippets' }).click();
  const fineRows = search.getByRole('tabpanel').locator('[data-result-path]');
  await expect(fineRows.first()).toContainText(/Span \[\d+, \d+\]/);
  const fineCount = await fineRows.count();
  expect(fineCount).toBeGreaterThan(0);
  await expect(search.getByRole('tabpanel').locator('[aria-expanded="true"]')).toHaveCount(fineCount);

  // A query with no match.
  await box.fill('zeppelin');
  await search.getByRole('button', { name: 'Send search' }).click();
  await expect(search.getByText('No results found')).toBeVisible();
});

test('with Read Only keys only, Collections says why it cannot write and its button adds a key with All Permissions; without any key both screens say so', async ({ page }) => {
  const { session_token, organization_id, api_key } = bootstrap(`hopper-${unique()}@example.com`, 'Cobol Works', 'Grace Hopper');
  expect((await providerCall(api_key, '/collections/add-collection', { collection_name: 'manuals' })).status).toBe(201);
  const info = await dashboardCall(session_token, '/api/organizations/get-info', { organization_id });
  const allKeyId = info.body.api_keys[0].id as string;
  await dashboardCall(session_token, '/api/organizations/api-keys/add-api-key', { organization_id, name: 'viewer', permission: 'read_only' });
  await dashboardCall(session_token, '/api/organizations/api-keys/delete-api-key', { organization_id, api_key_id: allKeyId });

  await openSignedIn(page, session_token, '/collections');
  const screen = page.locator('[data-screen="collections"]');
  await choose(page, screen.getByRole('combobox', { name: 'Collection' }), 'manuals');
  // No raw 403: the reason in one sentence, New Collection and uploads off, and the fix.
  await expect(screen.getByText("This organization's API keys are all Read Only, so the dashboard cannot add collections or files with them.")).toBeVisible();
  await expect(screen.getByRole('button', { name: 'New Collection' })).toBeDisabled();
  await expect(screen.getByLabel('Upload files', { exact: true })).toHaveCount(0);
  await screen.getByRole('button', { name: 'Add a key with All Permissions' }).click();
  await expect(screen.getByRole('button', { name: 'New Collection' })).toBeEnabled();
  await screen.getByLabel('Upload files', { exact: true }).setInputFiles({ name: 'allowed.txt', mimeType: 'text/plain', buffer: Buffer.from('written with the new key') });
  await expect(screen.locator('[data-upload="allowed.txt"]')).toHaveAttribute('data-state', 'done');
  // The Read Only key stays the working key (the first); the new one is listed after it.
  const names = (await dashboardCall(session_token, '/api/organizations/get-info', { organization_id })).body.api_keys.map((k: { name: string; permission: string }) => `${k.name}:${k.permission}`);
  expect(names).toEqual(['viewer:read_only', 'Dashboard uploads:all']);

  // Remove the last key: no working key.
  const keys = (await dashboardCall(session_token, '/api/organizations/get-info', { organization_id })).body.api_keys as { id: string }[];
  for (const key of keys) await dashboardCall(session_token, '/api/organizations/api-keys/delete-api-key', { organization_id, api_key_id: key.id });
  await page.reload();
  await expect(screen.getByText('No API Key is available. Please create an API Key!')).toBeVisible();
  await page.getByRole('link', { name: 'Search' }).click();
  await expect(page.locator('[data-screen="search"]').getByText('No API Key is available. Please create an API Key!')).toBeVisible();
});
