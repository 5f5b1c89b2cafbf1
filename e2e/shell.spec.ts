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
