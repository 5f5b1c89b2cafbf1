import { execFileSync } from 'node:child_process';
import { expect, type Page, test } from '@playwright/test';
import { bootstrap, openSignedIn, providerCall } from './fixtures';

/** Usage rows at explicit times through the server's own code (e2e/seed-usage.ts); returns the totals written. */
function seedUsage(organizationId: string, collections: string[]) {
  const output = execFileSync('node', ['--import', 'tsx', 'e2e/seed-usage.ts', organizationId, ...collections], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, SIFT_DATA_DIR: process.env.SIFT_E2E_DATA_DIR, SIFT_SECRET: 'e2e-secret-0123456789abcdef' },
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').pop()!) as {
    docs: number;
    ocr: number;
    indexed: number;
    queries: number;
    rerank: number;
    byCollection: Record<string, { docs: number }>;
  };
}

const collections = ['contracts', 'support-tickets'];

async function openUsage(page: Page, email: string) {
  const { session_token, organization_id, api_key } = bootstrap(email, `Usage ${email}`);
  for (const name of collections) expect((await providerCall(api_key, '/collections/add-collection', { collection_name: name })).status).toBe(201);
  const totals = seedUsage(organization_id, collections);
  await openSignedIn(page, session_token, '/usage');
  await expect(page.getByRole('heading', { name: 'Usage' })).toBeVisible();
  return { totals, api_key };
}

const tile = (page: Page, metric: string) => page.getByRole('button', { name: new RegExp(`^${metric}\\b`) });
const tileCount = (page: Page, metric: string) => tile(page, metric).getByTestId('tile-count');
const charts = (page: Page) => page.getByRole('figure');

test('the Usage screen opens on Models and shows the seeded history of both tabs', async ({ page }) => {
  const { totals } = await openUsage(page, 'usage-screen@example.com');
  await expect(page.getByRole('tab', { name: 'Models' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Rerank summary' })).toContainText(String(totals.rerank));
  await expect(tileCount(page, 'Rerank')).toHaveText(String(totals.rerank));
  await expect(charts(page)).toHaveCount(1);
  await expect(charts(page).first()).toContainText(/Rerank · \w{3} \d+ – \w{3} \d+, \d{4}/);
  await expect(page.getByRole('button', { name: 'day' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('tab', { name: 'Search API' }).click();
  for (const metric of ['Docs', 'OCR', 'Indexed', 'Queries']) await expect(page.getByRole('region', { name: `${metric} summary` })).toBeVisible();
  await expect(tileCount(page, 'Docs')).toHaveText(String(totals.docs));
  await expect(tileCount(page, 'OCR')).toHaveText(String(totals.ocr));
  await expect(tileCount(page, 'Indexed')).toHaveText(String(totals.indexed));
  await expect(tileCount(page, 'Queries')).toHaveText(String(totals.queries));
  await expect(charts(page)).toHaveCount(4);
});

test('metric tiles filter the charts and Show all brings every chart back', async ({ page }) => {
  await openUsage(page, 'usage-tiles@example.com');
  await page.getByRole('tab', { name: 'Search API' }).click();
  await expect(charts(page)).toHaveCount(4);
  await tile(page, 'Docs').click();
  await expect(charts(page)).toHaveCount(1);
  await expect(charts(page).first()).toContainText('Docs ·');
  await tile(page, 'Queries').click();
  await expect(charts(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Show all' }).click();
  await expect(charts(page)).toHaveCount(4);
  await expect(page.getByRole('button', { name: 'Show all' })).toHaveCount(0);
});

test('clicking a chart drills down from days to hours to minutes', async ({ page }) => {
  await openUsage(page, 'usage-drill@example.com');
  await page.getByTestId('usage-chart').first().click();
  await expect(page.getByRole('button', { name: 'hr' })).toHaveAttribute('aria-pressed', 'true');
  await expect(charts(page).first()).toContainText('by hour');
  await page.getByTestId('usage-chart').first().click();
  await expect(page.getByRole('button', { name: 'minute' })).toHaveAttribute('aria-pressed', 'true');
  await expect(charts(page).first()).toContainText('by minute');
  await expect(page.getByLabel('Hour')).toBeVisible();
  const title = await charts(page).first().textContent();
  await page.getByTestId('usage-chart').first().click();
  await expect(page.getByRole('button', { name: 'minute' })).toHaveAttribute('aria-pressed', 'true');
  expect(await charts(page).first().textContent()).toBe(title);
});

test('the collection picker follows the selection rules and labels', async ({ page }) => {
  const { totals } = await openUsage(page, 'usage-collections@example.com');
  await page.getByRole('tab', { name: 'Search API' }).click();
  await expect(tileCount(page, 'Docs')).toHaveText(String(totals.docs));
  const picker = page.getByRole('button', { name: 'All Collections' });
  await picker.click();
  const list = page.getByRole('group', { name: 'Collections' });
  await list.getByLabel('contracts').check();
  await expect(page.getByRole('button', { name: 'contracts', exact: true })).toBeVisible();
  await expect(list.getByLabel('All Collections')).not.toBeChecked();
  await expect(tileCount(page, 'Docs')).toHaveText(String(totals.byCollection.contracts!.docs));
  await list.getByLabel('support-tickets').check();
  await expect(page.getByRole('button', { name: '2 Collections' })).toBeVisible();
  await list.getByRole('button', { name: 'Clear All' }).click();
  await expect(page.getByRole('button', { name: 'Please select a collection' })).toBeVisible();
  await expect(tileCount(page, 'Docs')).toHaveText('0');
  await list.getByLabel('All Collections').check();
  await expect(page.getByRole('button', { name: 'All Collections' })).toBeVisible();
  await expect(tileCount(page, 'Docs')).toHaveText(String(totals.docs));
  await page.getByRole('heading', { name: 'Usage' }).click();
  await expect(list).toHaveCount(0);
});

test('Refresh reloads the summary and the history: a new rerank call shows', async ({ page }) => {
  const { totals, api_key } = await openUsage(page, 'usage-refresh@example.com');
  await expect(tileCount(page, 'Rerank')).toHaveText(String(totals.rerank));
  await expect(page.getByText('updated <1 min ago')).toBeVisible();
  const call = await providerCall(api_key, '/models/rerank', { model: 'zerank-2', query: 'refund policy', documents: ['refunds within 30 days', 'shipping times'] });
  expect(call.status).toBe(200);
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(tileCount(page, 'Rerank')).toHaveText(String(totals.rerank + 1));
  await expect(page.getByRole('region', { name: 'Rerank summary' })).toContainText(String(totals.rerank + 1));
  await expect(page.getByRole('button', { name: 'Refresh', exact: true })).toBeEnabled();
});
