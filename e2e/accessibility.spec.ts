import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { baseURL, bootstrap, choose, dashboardCall, goTo, openSignedIn, providerCall, signIn } from './fixtures';

/**
 * The dashboard for every person (issue 42): axe finds no serious or critical violation on any
 * screen, dialog or menu; no screen scrolls sideways at 390 or 768 px and the navigation stays
 * reachable; focus goes back to what opened a dialog, menu or inline edit. One owner with data is
 * set up once (per worker) and shared by the tests of this file, which run in order on one page.
 */
const SCREENS = [
  ['api-keys', 'API Keys'],
  ['search', 'Search'],
  ['billing', 'Billing'],
  ['usage', 'Usage'],
  ['collections', 'Collections'],
  ['organization', 'Organization'],
] as const;

let owner: ReturnType<typeof bootstrap>;
let page: Page;

async function newPage(browser: Browser, width: number) {
  const context = await browser.newContext({ baseURL, viewport: { width, height: 800 } });
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  const stamp = Date.now().toString(36);
  owner = bootstrap(`a11y-${stamp}@example.com`, 'Access Org', 'Ada Access');
  expect((await providerCall(owner.api_key, '/collections/add-collection', { collection_name: 'handbook' })).status).toBe(201);
  const longPath = 'policies/a-rather-long-folder-name/refunds-and-returns-for-every-region.txt';
  for (const [path, text] of [
    [longPath, 'Refunds are accepted within 30 days of purchase with a receipt.'],
    ['faq/warranty.txt', 'The warranty covers manufacturing defects for two years.'],
  ]) {
    await providerCall(owner.api_key, '/documents/add-document', { collection_name: 'handbook', path, content: { type: 'text', text }, metadata: { team: 'support' } });
  }
  execFileSync('node', ['--import', 'tsx', 'e2e/seed-usage.ts', owner.organization_id, 'handbook'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, SIFT_DATA_DIR: process.env.SIFT_E2E_DATA_DIR, SIFT_SECRET: 'e2e-secret-0123456789abcdef' },
  });
  await dashboardCall(owner.session_token, '/api/organizations/api-keys/add-api-key', {
    organization_id: owner.organization_id,
    name: 'Staging pipeline (nightly re-index of every collection)',
    permission: 'read_only',
  });
  await dashboardCall(owner.session_token, '/api/organizations/users/invite-user', { organization_id: owner.organization_id, email: 'pending.person@example.com', permission: 'MEMBER' });
  page = await newPage(browser, 1280);
  await openSignedIn(page, owner.session_token);
  await expect(page.getByRole('heading', { name: 'API Keys' })).toBeVisible();
});

test.afterAll(async () => {
  await page?.context().close();
});

/**
 * axe over the page as it is, or only the part `within` selects (WCAG 2.1 A and AA, best
 * practices, the experimental rules): no serious or critical violation.
 */
async function expectAccessible(on: Page, where: string, within?: string) {
  const started = Date.now();
  const builder = new AxeBuilder({ page: on }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice', 'experimental']);
  // A dialog or popover over a page already checked: only it (axe takes seconds a page).
  if (within) builder.include(within);
  const results = await builder.analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`);
  if (process.env.AXE_TIMES) console.log(`axe ${where}: ${Date.now() - started} ms`);
  expect(serious, `axe on ${where}`).toEqual([]);
}

const screen = (on: Page, route: string) => on.locator(`[data-screen="${route}"]`);

// axe takes seconds a page, more on a machine shared with other runs.
test.describe.configure({ timeout: 240_000 });

/** Neither the page nor its main region scrolls sideways. */
async function expectNoSidewaysScroll(on: Page, where: string) {
  const widths = await on.evaluate(() => {
    const main = document.getElementById('main')!;
    return { page: document.documentElement.scrollWidth, viewport: window.innerWidth, main: main.scrollWidth, mainClient: main.clientWidth };
  });
  expect(widths.page, `${where}: page scroll width`).toBeLessThanOrEqual(widths.viewport);
  expect(widths.main, `${where}: main scroll width`).toBeLessThanOrEqual(widths.mainClient);
}

async function expectFocusBackOn(target: Locator) {
  await expect(target).toBeFocused();
}

test('every screen and state has no serious or critical axe violation', async () => {
  for (const [route, label] of SCREENS) {
    await goTo(page, route, label);
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, route);
  }
});

test('the screens with data chosen have no serious or critical axe violation', async () => {
  // Usage's other tab, with its charts and tiles.
  await goTo(page, 'usage', 'Usage');
  await screen(page, 'usage').getByRole('tab', { name: 'Search API' }).click();
  await expect(screen(page, 'usage').getByTestId('usage-chart').first()).toBeVisible();
  await expectAccessible(page, 'usage, Search API');
  await screen(page, 'usage').getByRole('button', { name: 'All Collections' }).click();
  await expectAccessible(page, 'usage, collection checklist open', '[role="group"]');
  await page.keyboard.press('Escape');

  // A collection chosen and a document open.
  await goTo(page, 'collections', 'Collections');
  const collections = screen(page, 'collections');
  await choose(page, collections.getByRole('combobox', { name: 'Collection' }), 'handbook');
  await collections.getByRole('button', { name: /warranty\.txt/ }).click();
  await expect(collections.getByLabel('Document content')).toContainText('warranty', { timeout: 30_000 });
  await expectAccessible(page, 'collections with a document');

  // Search results.
  await goTo(page, 'search', 'Search');
  const search = screen(page, 'search');
  await choose(page, search.getByRole('combobox', { name: 'Collection' }), 'handbook');
  await search.getByPlaceholder('Search...').fill('refund receipt');
  await search.getByPlaceholder('Search...').press('Enter');
  await expect(search.getByRole('tabpanel').locator('[data-result-path]').first()).toBeVisible();
  await expectAccessible(page, 'search results');
});

test('every dialog and menu has no serious or critical axe violation', async () => {
  const check = async (open: () => Promise<unknown>, name: string, role: 'dialog' | 'menu' = 'dialog') => {
    await open();
    const opened = role === 'dialog' ? page.getByRole('dialog', { name }) : page.getByRole('menu');
    await expect(opened).toBeVisible();
    // A dialog alone; a menu with the page (a modal menu once hid the page's controls wrongly).
    await expectAccessible(page, `${role} ${name}`, role === 'dialog' ? '[role="dialog"]' : undefined);
    await page.keyboard.press('Escape');
    await expect(opened).toBeHidden();
  };
  await goTo(page, 'api-keys', 'API Keys');
  const keys = screen(page, 'api-keys');
  await check(() => keys.getByRole('button', { name: 'Add API Key' }).click(), 'Add API Key');
  await check(() => keys.getByRole('button', { name: /^Delete / }).first().click(), 'Delete API Key');
  await check(() => page.getByRole('button', { name: /^Organization:/ }).click(), 'organization', 'menu');
  await check(() => page.getByRole('button', { name: 'Account menu' }).click(), 'account', 'menu');
  await check(async () => {
    await page.getByRole('button', { name: /^Organization:/ }).click();
    await page.getByRole('menuitem', { name: 'Add Organization' }).click();
  }, 'Create New Organization');

  await goTo(page, 'collections', 'Collections');
  await check(() => screen(page, 'collections').getByRole('button', { name: 'New Collection' }).click(), 'Create Collection');

  await goTo(page, 'organization', 'Organization');
  const organization = screen(page, 'organization');
  await check(() => organization.getByRole('button', { name: 'Invite Member' }).click(), 'Invite Member');
  await check(() => organization.getByRole('button', { name: 'Edit Organization Name' }).click(), 'Edit Organization Name');
  await check(() => organization.getByRole('button', { name: 'Delete Organization' }).click(), 'Delete Organization');

  await goTo(page, 'billing', 'Billing');
  await check(() => screen(page, 'billing').getByRole('button', { name: 'Try now' }).first().click(), 'Confirm Starter Subscription');
});

test('the sign-in pages and the screens of a person with no organization have no serious or critical axe violation', async ({ browser }) => {
  const fresh = await newPage(browser, 1280);
  await fresh.goto('/login');
  await expect(fresh.getByRole('button', { name: 'Sign in with Google' })).toBeFocused();
  await expectAccessible(fresh, 'login');
  await fresh.getByRole('button', { name: 'Sign in with Google' }).click();
  // The local sign-in page focuses its first field.
  await expect(fresh.getByLabel('Name')).toBeFocused();
  await expectAccessible(fresh, 'local sign-in');
  await signIn(fresh, { name: 'Nina None', email: `a11y-none-${Date.now()}@example.com` });
  for (const [route, label] of SCREENS) {
    await goTo(fresh, route, label);
    await expectAccessible(fresh, `${route} without an organization`);
  }
  await fresh.context().close();
});

for (const width of [390, 768]) {
  test(`at ${width} px no screen scrolls sideways, the sidebar sits behind a menu button, and every screen is reachable`, async ({ browser }) => {
    const narrow = await newPage(browser, width);
    await openSignedIn(narrow, owner.session_token);
    await expect(narrow.getByRole('heading', { name: 'API Keys' })).toBeVisible();
    await expect(narrow.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const menuButton = narrow.getByRole('button', { name: 'Open navigation' });
    await expect(menuButton).toBeVisible();
    for (const [route, label] of SCREENS) {
      await goTo(narrow, route, label);
      await narrow.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(narrow, `${route} at ${width}`);
    }
    // With data chosen: a collection's list, search results, the Search API charts.
    await goTo(narrow, 'collections', 'Collections');
    await choose(narrow, screen(narrow, 'collections').getByRole('combobox', { name: 'Collection' }), 'handbook');
    await expect(screen(narrow, 'collections').locator('[data-status="indexed"]').first()).toBeVisible({ timeout: 30_000 });
    await expectNoSidewaysScroll(narrow, `collections with a collection at ${width}`);
    await goTo(narrow, 'usage', 'Usage');
    await screen(narrow, 'usage').getByRole('tab', { name: 'Search API' }).click();
    await expect(screen(narrow, 'usage').getByTestId('usage-chart').first()).toBeVisible();
    await expectNoSidewaysScroll(narrow, `usage Search API at ${width}`);

    // The sheet: Escape closes it and focus goes back to the menu button; Tab stays inside.
    await menuButton.click();
    const sheet = narrow.getByRole('dialog', { name: 'Navigation' });
    await expect(sheet).toBeVisible();
    await expectAccessible(narrow, `navigation sheet at ${width}`, '[role="dialog"]');
    for (let i = 0; i < 12; i += 1) await narrow.keyboard.press('Tab');
    expect(await sheet.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await narrow.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await expectFocusBackOn(menuButton);
    // The header's controls stay on screen.
    for (const control of [narrow.getByRole('button', { name: /^Organization:/ }), narrow.getByRole('button', { name: 'Account menu' })]) {
      const box = (await control.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    await narrow.context().close();
  });
}

test('focus goes back to what opened a dialog, a menu or an inline edit', async () => {
  await goTo(page, 'api-keys', 'API Keys');
  const keys = screen(page, 'api-keys');
  const add = keys.getByRole('button', { name: 'Add API Key' });

  // Add API Key: Escape, then a created key.
  await add.click();
  await page.keyboard.press('Escape');
  await expectFocusBackOn(add);
  await add.click();
  const dialog = page.getByRole('dialog', { name: 'Add API Key' });
  await dialog.getByLabel('API Key Name').fill('focus key');
  await dialog.getByLabel('API Key Name').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(keys.getByText('focus key')).toBeVisible();
  await expectFocusBackOn(add);

  // Inline rename: Escape cancels, Enter saves; both give focus back to Rename.
  await keys.getByRole('button', { name: 'Rename focus key' }).click();
  await page.keyboard.press('Escape');
  await expectFocusBackOn(keys.getByRole('button', { name: 'Rename focus key' }));
  await page.keyboard.press('Enter');
  await expect(keys.getByLabel('API key name')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('focus key renamed');
  await page.keyboard.press('Enter');
  await expectFocusBackOn(keys.getByRole('button', { name: 'Rename focus key renamed' }));

  // Delete: Cancel gives focus back to Delete; a deleted key's row is gone, so focus goes to the screen, never the page body.
  const remove = keys.getByRole('button', { name: 'Delete focus key renamed' });
  await remove.click();
  await page.getByRole('dialog', { name: 'Delete API Key' }).getByRole('button', { name: 'Cancel' }).click();
  await expectFocusBackOn(remove);
  await remove.click();
  await page.getByRole('dialog', { name: 'Delete API Key' }).getByRole('button', { name: 'Delete' }).click();
  await expect(keys.getByText('focus key renamed')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);

  // A menu item's dialog gives focus back to the menu's button.
  const organizationMenu = page.getByRole('button', { name: /^Organization:/ });
  await organizationMenu.click();
  await page.getByRole('menuitem', { name: 'Add Organization' }).click();
  await page.keyboard.press('Escape');
  await expectFocusBackOn(organizationMenu);

  // Invite Member, then Invitation Sent!: closing the second gives focus back to Invite Member.
  await goTo(page, 'organization', 'Organization');
  const organization = screen(page, 'organization');
  const invite = organization.getByRole('button', { name: 'Invite Member' });
  await invite.click();
  const inviteDialog = page.getByRole('dialog', { name: 'Invite Member' });
  await inviteDialog.getByLabel('Email').fill(`focus-${Date.now()}@example.com`);
  await inviteDialog.getByLabel('Email').press('Enter');
  const sent = page.getByRole('dialog', { name: 'Invitation Sent!' });
  await expect(sent).toBeVisible();
  await expectAccessible(page, 'Invitation Sent!', '[role="dialog"]');
  await sent.getByRole('button', { name: 'Done' }).click();
  await expect(sent).toBeHidden();
  await expectFocusBackOn(invite);

  const rename = organization.getByRole('button', { name: 'Edit Organization Name' });
  await rename.click();
  await page.keyboard.press('Escape');
  await expectFocusBackOn(rename);
});

test('a skip link leads past the navigation, and chart points drill down by keyboard', async () => {
  await goTo(page, 'usage', 'Usage');
  // A fresh load: the first Tab of the page.
  await page.reload();
  await expect(screen(page, 'usage').getByTestId('usage-chart').first()).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  // The Models chart: focus it, move to a point with the arrow keys, Enter drills into that day.
  const usage = screen(page, 'usage');
  const chart = usage.getByTestId('usage-chart').first();
  await expect(chart).toBeVisible();
  await chart.locator('[tabindex="0"]').first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(usage.getByRole('button', { name: 'hr' })).toHaveAttribute('aria-pressed', 'true');
  await usage.getByTestId('usage-chart').first().locator('[tabindex="0"]').first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(usage.getByRole('button', { name: 'minute' })).toHaveAttribute('aria-pressed', 'true');
  await expect(usage.getByRole('combobox', { name: 'Hour' })).toBeVisible();
});
