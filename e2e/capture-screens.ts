/**
 * Screenshots of every screen, with data and empty, at 1440x900, 1280x720, 768x1024 and 390x844
 * (SIZES=390x844,768x1024 for some), for a person to look at before calling a dashboard change
 * done. Against a running server on its data folder:
 *
 *   SIFT_E2E_BASE_URL=http://localhost:8116 SIFT_E2E_DATA_DIR=<its data dir> \
 *     node --import tsx e2e/capture-screens.ts <output folder>
 *
 * (start the server with the same SIFT_DATA_DIR and SIFT_SECRET=e2e-secret-0123456789abcdef).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { bootstrap, dashboardCall, goTo, openSignedIn, providerCall, signIn } from './fixtures.ts';

const out = process.argv[2] ?? '/tmp/sift-screens';
mkdirSync(out, { recursive: true });
const stamp = Date.now();

// With data: collections, documents, usage, a second key, a member and a pending invite.
const owner = bootstrap(`shots-owner-${stamp}@example.com`, 'Acme Search', 'Olivia Owner');
for (const name of ['contracts', 'support-tickets']) await providerCall(owner.api_key, '/collections/add-collection', { collection_name: name });
const texts = {
  'policies/refunds.txt': 'Refunds are accepted within 30 days of purchase with a receipt. Store credit is offered after 30 days.',
  'policies/shipping.txt': 'Orders ship within two business days. Express shipping arrives the next day in most regions.',
  'faq/warranty.txt': 'The warranty covers manufacturing defects for two years. Accidental damage is not covered.',
};
for (const [path, text] of Object.entries(texts)) {
  await providerCall(owner.api_key, '/documents/add-document', { collection_name: 'contracts', path, content: { type: 'text', text }, metadata: { team: 'support' } });
}
execFileSync('node', ['--import', 'tsx', 'e2e/seed-usage.ts', owner.organization_id, 'contracts', 'support-tickets'], {
  cwd: new URL('..', import.meta.url).pathname,
  env: { ...process.env, SIFT_DATA_DIR: process.env.SIFT_E2E_DATA_DIR, SIFT_SECRET: 'e2e-secret-0123456789abcdef' },
});
await dashboardCall(owner.session_token, '/api/organizations/api-keys/add-api-key', { organization_id: owner.organization_id, name: 'Staging pipeline (nightly re-index)', permission: 'read_only' });
await dashboardCall(owner.session_token, '/api/organizations/users/invite-user', { organization_id: owner.organization_id, email: 'pending.person@example.com', permission: 'MEMBER' });

// Empty: an organization with its key and nothing else.
const fresh = bootstrap(`shots-fresh-${stamp}@example.com`, 'Fresh Org', 'Frank Fresh');

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const screens = ['api-keys', 'search', 'billing', 'collections', 'organization', 'usage'] as const;

/** The whole screen: the page is as tall as the main region's content, then back. */
async function shoot(page: Page, path: string) {
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(() => document.getElementById('main')?.scrollHeight ?? 0);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height + 56) });
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}

async function captureAll(page: Page, state: string, size: string) {
  for (const screen of screens) {
    await goTo(page, screen, { 'api-keys': 'API Keys', search: 'Search', billing: 'Billing', collections: 'Collections', organization: 'Organization', usage: 'Usage' }[screen]);
    await page.waitForTimeout(1500);
    await shoot(page, `${out}/${size}-${state}-${screen}.png`);
    if (screen === 'usage' && state !== 'no-organization') {
      await page.getByRole('tab', { name: 'Search API' }).click();
      await page.waitForTimeout(1500);
      await shoot(page, `${out}/${size}-${state}-usage-search-api.png`);
      await page.getByRole('tab', { name: 'Models' }).click();
    }
  }
}

const sizes = (process.env.SIZES ?? '1440x900,1280x720,768x1024,390x844').split(',').map((size) => size.split('x').map(Number) as [number, number]);
for (const [width, height] of sizes) {
  const size = `${width}x${height}`;
  const context = await browser.newContext({ viewport: { width, height }, baseURL: process.env.SIFT_E2E_BASE_URL });
  const page = await context.newPage();
  await openSignedIn(page, owner.session_token, '/api-keys');
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
  await captureAll(page, 'data', size);
  // A chosen collection and document, and a search with results.
  await goTo(page, 'collections', 'Collections');
  const collections = page.locator('[data-screen="collections"]');
  await collections.getByRole('combobox', { name: 'Collection' }).click();
  await page.getByRole('option', { name: 'contracts' }).click();
  await collections.getByText('refunds.txt').first().click();
  await page.waitForTimeout(1500);
  await shoot(page, `${out}/${size}-data-collections-document.png`);
  await goTo(page, 'search', 'Search');
  const search = page.locator('[data-screen="search"]');
  await search.getByRole('combobox', { name: 'Collection' }).click();
  await page.getByRole('option', { name: 'contracts' }).click();
  await search.getByPlaceholder('Search...').fill('refund receipt');
  await search.getByPlaceholder('Search...').press('Enter');
  await page.waitForTimeout(2000);
  await shoot(page, `${out}/${size}-data-search-results.png`);
  await goTo(page, 'api-keys', 'API Keys');
  await page.getByRole('button', { name: /^Rename / }).first().click();
  await page.screenshot({ path: `${out}/${size}-data-api-keys-renaming.png` });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add API Key' }).click();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.screenshot({ path: `${out}/${size}-data-add-api-key-permission-open.png` });
  await context.close();

  const freshContext = await browser.newContext({ viewport: { width, height }, baseURL: process.env.SIFT_E2E_BASE_URL });
  const freshPage = await freshContext.newPage();
  await openSignedIn(freshPage, fresh.session_token, '/api-keys');
  await freshPage.getByRole('heading', { name: 'API Keys' }).waitFor();
  await captureAll(freshPage, 'empty', size);
  await freshContext.close();

  const noneContext = await browser.newContext({ viewport: { width, height }, baseURL: process.env.SIFT_E2E_BASE_URL });
  const nonePage = await noneContext.newPage();
  await signIn(nonePage, { name: 'Nina None', email: `shots-none-${stamp}-${width}@example.com` });
  await captureAll(nonePage, 'no-organization', size);
  await noneContext.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
