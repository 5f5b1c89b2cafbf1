import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

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
