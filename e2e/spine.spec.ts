import { expect, type Page, test } from '@playwright/test';
import { bootstrap, choose, dashboardCall, signIn } from './fixtures';

const shot = (page: Page, name: string) => (process.env.E2E_SCREENSHOTS ? page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true }) : undefined);
const sessionOf = (page: Page) => page.evaluate(() => localStorage.getItem('sift.session_token')!);

test.describe.configure({ mode: 'serial' });

test('an owner creates an organization and manages API keys', async ({ page }) => {
  await signIn(page, { name: 'Olivia Owner', email: 'olivia@example.com' });
  await expect(page.getByText('No organization selected')).toBeVisible();
  await page.getByRole('button', { name: /^Organization:/ }).click();
  await expect(page.getByText('No organizations available')).toBeVisible();
  await page.getByRole('menuitem', { name: 'Add Organization' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Organization' });
  await expect(create.getByRole('button', { name: 'Create' })).toBeDisabled();
  await create.getByLabel('Organization Name').fill('Acme Search');
  await create.getByLabel('Organization Name').press('Enter');
  await expect(create).toBeHidden();
  await expect(page.getByRole('button', { name: /^Organization:/ })).toHaveText(/Acme Search/);
  await expect(page.getByText('No API keys found')).toBeVisible();

  await page.getByRole('button', { name: 'Add API Key' }).click();
  const add = page.getByRole('dialog', { name: 'Add API Key' });
  await expect(add.getByLabel('Permission Level')).toHaveText('Read Only');
  await add.getByLabel('API Key Name').fill('Production');
  await choose(page, add.getByLabel('Permission Level'), 'All Permissions');
  await add.getByRole('button', { name: 'Create' }).click();
  await expect(add).toBeHidden();
  const row = page.getByRole('row', { name: /Production/ });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(3)).toHaveText('Olivia Owner');
  const masked = await row.locator('code').textContent();
  expect(masked).toMatch(/^sift\*+.{4}$/);

  await row.getByRole('button', { name: 'Show API key' }).click();
  const full = await row.locator('code').textContent();
  expect(full).toMatch(/^sift_[A-Za-z0-9_-]{20,}$/);
  await row.getByRole('button', { name: 'Copy API key' }).click();
  await expect(row.getByText('Copied!')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(full);
  await expect(row.getByText('Copied!')).toBeHidden({ timeout: 4000 });
  await row.getByRole('button', { name: 'Hide API key' }).click();
  await expect(row.locator('code')).toHaveText(masked!);

  await row.getByRole('button', { name: 'Rename Production' }).click();
  await row.getByLabel('API key name').fill('Ignored');
  await row.getByLabel('API key name').press('Escape');
  await expect(page.getByRole('row', { name: /Production/ })).toBeVisible();
  await page.getByRole('row', { name: /Production/ }).getByRole('button', { name: 'Rename Production' }).click();
  await page.getByLabel('API key name').fill('Staging');
  await page.getByLabel('API key name').press('Enter');
  const renamed = page.getByRole('row', { name: /Staging/ });
  await expect(renamed).toBeVisible();
  await shot(page, 'api-keys');

  await renamed.getByRole('button', { name: 'Delete Staging' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete API Key' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete the API key "Staging"? This action cannot be undone and will immediately revoke access for any applications using this key.',
  );
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No API keys found')).toBeVisible();

  // A key for the member to see read-only later.
  await page.getByRole('button', { name: 'Add API Key' }).click();
  await page.getByLabel('API Key Name').fill('Shared');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('row', { name: /Shared/ })).toBeVisible();
});

test('an invited member accepts by link, sees keys read-only, and the owner manages members', async ({ browser, page }) => {
  await signIn(page, { name: 'Olivia Owner', email: 'olivia@example.com' });
  await page.getByRole('link', { name: 'Organization' }).click();
  await expect(page.getByText('Organization Details')).toBeVisible();
  await page.getByRole('button', { name: 'Invite Member' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite Member' });
  await expect(invite.getByLabel('Permission')).toHaveText('MEMBER');
  await invite.getByLabel('Email').fill('mark@example.com');
  await invite.getByLabel('Email').press('Enter');
  const sent = page.getByRole('dialog', { name: 'Invitation Sent!' });
  const inviteUrl = await sent.getByRole('textbox', { name: 'Invite link' }).inputValue();
  expect(inviteUrl).toContain('invite=');
  await sent.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('invite-row').filter({ hasText: 'mark@example.com' }).getByText('Invite Sent')).toBeVisible();

  // A second invite, removed again.
  await page.getByRole('button', { name: 'Invite Member' }).click();
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await page.getByRole('dialog', { name: 'Invitation Sent!' }).getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('invite-row').filter({ hasText: 'nobody@example.com' }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove Invite' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('nobody@example.com')).toHaveCount(0);
  await shot(page, 'organization-owner');

  // The invitee opens the link signed out, signs in, and accepts.
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  await member.goto(inviteUrl);
  await expect(member).toHaveURL(/\/login\?invite=/);
  await member.getByRole('button', { name: 'Sign in with Google' }).click();
  await member.getByLabel('Name').fill('Mark Member');
  await member.getByLabel('E-mail').fill('mark@example.com');
  await member.getByRole('button', { name: 'Continue' }).click();
  const invitation = member.getByRole('dialog', { name: 'Organization Invitation' });
  await expect(invitation).toContainText('olivia@example.com');
  await expect(invitation).toContainText('Acme Search');
  await invitation.getByRole('button', { name: 'Accept' }).click();
  await expect(member).toHaveURL(/\/organization$/);
  await expect(member.getByTestId('member-row').filter({ hasText: 'Mark Member' }).getByText('You')).toBeVisible();
  await expect(member.getByRole('button', { name: 'Remove' })).toHaveCount(0);
  await member.getByRole('button', { name: 'Invite Member' }).click();
  await expect(member.getByRole('dialog', { name: 'Permission Required' })).toContainText(
    'Only organization owners can add new members. Please contact an owner to invite new users to this organization.',
  );
  await member.keyboard.press('Escape');

  await member.getByRole('link', { name: 'API Keys' }).click();
  const sharedRow = member.getByRole('row', { name: /Shared/ });
  await expect(sharedRow.getByText('Read Only')).toBeVisible();
  await expect(sharedRow.getByRole('button', { name: /Delete/ })).toHaveCount(0);
  const memberAlerts: string[] = [];
  member.once('dialog', (dialog) => {
    memberAlerts.push(dialog.message());
    void dialog.accept();
  });
  await member.getByRole('button', { name: 'Add API Key' }).click();
  await expect.poll(() => memberAlerts).toEqual(['Only organization owners can manage API keys.']);
  await shot(member, 'api-keys-member');

  // The owner makes Mark an owner, then removes him.
  await page.reload();
  const markRow = page.getByTestId('member-row').filter({ hasText: 'Mark Member' });
  await choose(page, markRow.getByLabel('Permission of Mark Member'), 'OWNER');
  await page.getByRole('dialog', { name: 'Change Permission' }).getByRole('button', { name: 'Change Permission' }).click();
  await expect(page.getByTestId('member-row').filter({ hasText: 'Mark Member' }).getByLabel('Permission of Mark Member')).toHaveText('OWNER');
  await page.getByTestId('member-row').filter({ hasText: 'Mark Member' }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove User' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Mark Member')).toHaveCount(0);
  await memberContext.close();
});

test('an owner renames, deletes an organization after a wrong id, and leaves another', async ({ page }) => {
  await signIn(page, { name: 'Olivia Owner', email: 'olivia@example.com' });
  const token = await sessionOf(page);
  const second = await dashboardCall(token, '/api/organizations/add-organization', { name: 'Doomed Org' });
  await page.reload();
  await page.getByRole('button', { name: /^Organization:/ }).first().click();
  await page.getByRole('menuitem', { name: /Doomed Org/ }).click();
  await page.getByRole('link', { name: 'Organization' }).click();
  await page.getByRole('button', { name: 'Edit Organization Name' }).click();
  await page.getByRole('dialog', { name: 'Edit Organization Name' }).getByLabel('Organization Name').fill('Doomed Org 2');
  await page.getByRole('dialog', { name: 'Edit Organization Name' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('main').getByText('Doomed Org 2')).toBeVisible();

  await page.getByRole('button', { name: 'Delete Organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Organization' });
  await expect(dialog).toContainText('less than 1 hour ago');
  await dialog.getByLabel('Organization ID').fill('org-wrong');
  await dialog.getByRole('button', { name: 'Delete Organization' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Organization ID does not match. Please enter the correct ID.');
  await dialog.getByLabel('Organization ID').fill(`org-${second.body.id}`);
  await dialog.getByRole('button', { name: 'Delete Organization' }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await page.getByRole('button', { name: /^Organization:/ }).first().click();
  await expect(page.getByRole('menuitem', { name: /Doomed/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Leaving: the last owner is told to hand over ownership first (no request, no raw refusal); with a co-owner she may leave.
  const other = await dashboardCall(token, '/api/organizations/add-organization', { name: 'Left Behind' });
  await page.reload();
  await page.getByRole('button', { name: /^Organization:/ }).first().click();
  await page.getByRole('menuitem', { name: /Left Behind/ }).click();
  await page.getByRole('link', { name: 'Organization' }).click();
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await page.getByTestId('member-row').filter({ hasText: 'Olivia Owner' }).getByRole('button', { name: 'Leave' }).click();
  const lastOwner = page.getByRole('dialog', { name: 'Leave Organization' });
  await expect(lastOwner).toContainText('You are the only owner of this organization, so you cannot leave it yet. Make another member an owner first');
  await expect(lastOwner.getByRole('button', { name: 'Leave' })).toHaveCount(0);
  await lastOwner.getByRole('button', { name: 'OK' }).click();
  await expect(lastOwner).toBeHidden();
  expect(alerts).toEqual([]);

  const coOwner = bootstrap('co@example.com', 'Co Org', 'Cora');
  const link = await dashboardCall(token, '/api/organizations/users/invite-user', { organization_id: other.body.id, email: 'co@example.com', permission: 'OWNER' });
  const accepted = await dashboardCall(coOwner.session_token, '/api/organizations/users/accept-invite', { invite_jwt: new URL(link.body.invite_url).searchParams.get('invite') });
  expect(accepted.status).toBe(200);
  await page.reload();
  await page.getByTestId('member-row').filter({ hasText: 'Olivia Owner' }).getByRole('button', { name: 'Leave' }).click();
  await page.getByRole('dialog', { name: 'Leave Organization' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await page.getByRole('button', { name: /^Organization:/ }).first().click();
  await expect(page.getByRole('menuitem', { name: /Left Behind/ })).toHaveCount(0);
});

test('the marketplace dialog creates an organization from a stored token', async ({ page }) => {
  await page.goto('/login?aws_marketplace_token=aws-token-123');
  await signIn(page, { name: 'Mia Market', email: 'mia@example.com' });
  const dialog = page.getByRole('dialog', { name: 'Welcome to Sift from AWS Marketplace!' });
  await expect(dialog.getByPlaceholder('Enter organization name')).toBeVisible();
  await dialog.getByPlaceholder('Enter organization name').fill('Market Co');
  await dialog.getByPlaceholder('Enter organization name').press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /^Organization:/ }).first()).toHaveText(/Market Co/);
  expect(await page.evaluate(() => localStorage.getItem('sift.aws_marketplace_token'))).toBeNull();
});

test('the hosting-marketplace dialog sends the browser to the stored success address; Cancel forgets the token', async ({ page }) => {
  await page.goto('/login?vercel_marketplace_token=vercel-token-1&vercel_success_url=%2Fbilling%3Fvia%3Dvercel');
  await signIn(page, { name: 'Vera Vercel', email: 'vera@example.com' });
  const dialog = page.getByRole('dialog', { name: 'Welcome to Sift from Vercel Marketplace!' });
  await expect(dialog.getByRole('button', { name: 'Create Organization' })).toBeDisabled();
  await dialog.getByPlaceholder('Enter organization name').fill('Hosted Co');
  await dialog.getByRole('button', { name: 'Create Organization' }).click();
  await expect(page).toHaveURL(/\/billing\?via=vercel$/);
  expect(await page.evaluate(() => localStorage.getItem('sift.vercel_marketplace_token'))).toBeNull();

  await page.goto('/api-keys?aws_marketplace_token=another');
  const aws = page.getByRole('dialog', { name: 'Welcome to Sift from AWS Marketplace!' });
  await aws.getByRole('button', { name: 'Cancel' }).click();
  await expect(aws).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('sift.aws_marketplace_token'))).toBeNull();
  await page.reload();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('unknown routes redirect keeping the query, and back/forward follow the route', async ({ page }) => {
  await page.goto('/somewhere?x=1');
  await expect(page).toHaveURL(/\/login\?x=1$/);
  await signIn(page, { name: 'Rita Router', email: 'rita@example.com' });
  await page.goto('/nowhere?y=2');
  await expect(page).toHaveURL(/\/api-keys\?y=2$/);
  await page.getByRole('link', { name: 'Billing' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await page.getByRole('link', { name: 'Organization' }).click();
  await expect(page.getByRole('heading', { name: 'Organization' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.locator('[data-screen="billing"]')).toBeVisible();
  await expect(page.locator('[data-screen="organization"]')).toBeHidden();
  await page.goForward();
  await expect(page).toHaveURL(/\/organization$/);
  // Every screen shows the same empty state; the organization screen is the one routed.
  await expect(page.locator('[data-screen="organization"]').getByText('There are no organizations associated with your account.', { exact: false })).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/api-keys$/);
});
