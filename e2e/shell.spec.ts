import { expect, test } from '@playwright/test';
import { bootstrap, openSignedIn, signIn } from './fixtures';

test('signing in locally lands on api-keys with the shell', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('SOC 2 Type 2')).toBeVisible();
  await expect(page.getByText('HIPAA')).toBeVisible();
  await signIn(page, { name: 'Shell Tester', email: 'shell@example.com' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('the provider SDK is not part of the first load: sign-in and API Keys fetch none of it, the Search screen does', async ({ page }) => {
  // The SDK's own request header name marks the chunk it is in.
  const SDK_MARK = 'x-stainless';
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script' && response.status() === 200) scripts.push(response.text());
  });
  const fetchedSdk = async () => (await Promise.all(scripts)).some((text) => text.includes(SDK_MARK));
  await signIn(page, { name: 'Bundle Tester', email: 'bundle@example.com' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await fetchedSdk()).toBe(false);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search/);
  // A route change in the page is no navigation: no load state to wait for, so poll.
  await expect.poll(fetchedSdk).toBe(true);
});

test('a tab opened before an upgrade loads the new build when a screen it asks for is gone', async ({ page }) => {
  const { session_token } = bootstrap('upgrade@example.com', 'Upgrade Org', 'Una');
  await openSignedIn(page, session_token);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // The server answers 404 for the screen's chunk once, as for an old build's file after an upgrade.
  let refused = 0;
  await page.route(/\/assets\/organization-screen-[^/]+\.js$/, (route) => {
    refused += 1;
    return route.fulfill({ status: 404, body: 'Not Found' });
  }, { times: 1 });
  const reloaded = page.waitForEvent('load', { timeout: 10_000 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
  await reloaded;
  expect(refused).toBe(1);
  await expect(page).toHaveURL(/\/organization$/);
  await expect(page.getByRole('button', { name: 'Edit Organization Name' })).toBeVisible();
});
