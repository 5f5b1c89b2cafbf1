import { execFileSync } from 'node:child_process';
import { expect, type Locator, type Page } from '@playwright/test';

export const baseURL = process.env.SIFT_E2E_BASE_URL!;

/** Signs in through the real local sign-in page, as a person would, and lands on api-keys. */
export async function signIn(page: Page, { name, email }: { name: string; email: string }, path = '/login') {
  await page.goto(path);
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  // The redirect lands on /api-keys#session=…; the app has kept the token once it strips the
  // fragment. Waiting for the path alone let a test read the stored token before it was written.
  await expect(page).toHaveURL((url) => url.pathname === '/api-keys' && url.hash === '');
}

/**
 * A user who owns an organization with an all-permission API key, made by the project's own CLI
 * against the test server's data folder: `{session_token, organization_id, api_key}`.
 */
export function bootstrap(email: string, org: string, name = email.split('@')[0]!) {
  const output = execFileSync('node', ['--import', 'tsx', 'apps/server/src/cli.ts', 'bootstrap', '--email', email, '--name', name, '--org', org], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, SIFT_DATA_DIR: process.env.SIFT_E2E_DATA_DIR, SIFT_SECRET: 'e2e-secret-0123456789abcdef' },
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').pop()!) as { session_token: string; organization_id: string; api_key: string };
}

/** Opens the dashboard already signed in with a session token (as the sign-in redirect does). */
export async function openSignedIn(page: Page, sessionToken: string, path = '/api-keys') {
  await page.goto(`${path}#session=${sessionToken}`);
}

/**
 * Calls the dashboard API with a session token (setting up state a test is not about): a refused
 * call fails the test here, with the server's answer, not later as a timeout on a missing row.
 */
export async function dashboardCall(sessionToken: string, path: string, body: unknown) {
  const response = await fetch(baseURL + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` },
    body: JSON.stringify(body),
  });
  const answer = { status: response.status, body: await response.json() };
  if (!response.ok) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** Calls the provider API with an API key. */
export async function providerCall(apiKey: string, path: string, body: unknown) {
  const response = await fetch(`${baseURL}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Opens a select (a combobox) and clicks the option with that name. */
export async function choose(page: Page, combobox: Locator, option: string) {
  await combobox.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Goes to a screen by its sidebar entry, through the menu button when the sidebar is collapsed
 * (below 1024 px), and waits for the screen's heading.
 */
export async function goTo(page: Page, route: string, label: string) {
  const menuButton = page.getByRole('button', { name: 'Open navigation' });
  if (await menuButton.isVisible()) {
    await menuButton.click();
    const sheet = page.getByRole('dialog', { name: 'Navigation' });
    await sheet.getByRole('link', { name: label, exact: true }).click();
    await expect(sheet).toBeHidden();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
  }
  await expect(page).toHaveURL(new RegExp(`/${route}`));
  await expect(page.locator(`[data-screen="${route}"]`).getByRole('heading', { level: 1 })).toBeVisible();
}
