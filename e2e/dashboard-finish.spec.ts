import { expect, type Locator, type Page, test } from '@playwright/test';
import { bootstrap, openSignedIn, providerCall, signIn } from './fixtures';

const noOrganization = 'There are no organizations associated with your account. Please create an organization using the drop-down menu at the top. Thank you!';

test('without an organization every organization screen shows the create-an-organization message (API Keys its own text, Organization its error form) and nothing keeps loading', async ({ page }) => {
  await signIn(page, { name: 'Nora Noorg', email: 'nora-noorg@example.com' });
  for (const [link, route] of [
    ['API Keys', 'api-keys'],
    ['Search', 'search'],
    ['Collections', 'collections'],
    ['Organization', 'organization'],
    ['Usage', 'usage'],
  ] as const) {
    await page.getByRole('link', { name: link }).click();
    const screen = page.locator(`[data-screen="${route}"]`);
    const text = { 'api-keys': 'No organization selected', organization: `Error: ${noOrganization}` }[route as string] ?? noOrganization;
    await expect(screen.getByText(text, { exact: true })).toBeVisible();
    await expect(screen.getByRole('button', { name: 'Create Organization' })).toBeVisible();
    await expect(screen.getByText('Loading...')).toHaveCount(0);
    await expect(screen.getByTestId('chart-skeleton')).toHaveCount(0);
  }
});

/** Opens a dialog by clicking `opener` and expects focus on `focused` inside it. */
async function expectInitialFocus(page: Page, opener: Locator, dialogName: string, focused: (dialog: Locator) => Locator) {
  await opener.click();
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  await expect(focused(dialog)).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Close' })).not.toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test('every dialog opens on its first field, or on Cancel for a confirmation', async ({ page }) => {
  const { session_token, api_key } = bootstrap('focus-owner@example.com', 'Focus Org');
  expect((await providerCall(api_key, '/collections/add-collection', { collection_name: 'focus' })).status).toBe(201);
  await openSignedIn(page, session_token, '/api-keys');

  await expectInitialFocus(page, page.getByRole('button', { name: 'Add API Key' }), 'Add API Key', (d) => d.getByLabel('API Key Name'));
  const keyName = (await page.getByRole('row').nth(1).getByRole('cell').first().textContent())!.trim();
  await expectInitialFocus(page, page.getByRole('button', { name: `Delete ${keyName}` }), 'Delete API Key', (d) => d.getByRole('button', { name: 'Cancel' }));

  await page.getByRole('button', { name: /^Organization:/ }).first().click();
  await expectInitialFocus(page, page.getByRole('menuitem', { name: 'Add Organization' }), 'Create New Organization', (d) => d.getByLabel('Organization Name'));

  await page.getByRole('link', { name: 'Organization' }).click();
  const organization = page.locator('[data-screen="organization"]');
  await expect(organization.getByText('Organization Details')).toBeVisible();
  await expectInitialFocus(page, organization.getByRole('button', { name: 'Invite Member' }), 'Invite Member', (d) => d.getByLabel('Email'));
  await expectInitialFocus(page, organization.getByRole('button', { name: 'Edit Organization Name' }), 'Edit Organization Name', (d) => d.getByLabel('Organization Name'));
  await expectInitialFocus(page, organization.getByRole('button', { name: 'Delete Organization' }), 'Delete Organization', (d) => d.getByLabel('Organization ID'));
  // The only owner is told to hand over ownership first: OK is the one action.
  await expectInitialFocus(page, organization.getByRole('button', { name: 'Leave' }), 'Leave Organization', (d) => d.getByRole('button', { name: 'OK' }));

  // Invitation Sent! opens on the link to share; Remove Invite on Cancel.
  await organization.getByRole('button', { name: 'Invite Member' }).click();
  await page.getByRole('dialog', { name: 'Invite Member' }).getByLabel('Email').fill('focus-invitee@example.com');
  await page.getByRole('dialog', { name: 'Invite Member' }).getByRole('button', { name: 'Send Invite' }).click();
  const sent = page.getByRole('dialog', { name: 'Invitation Sent!' });
  await expect(sent.getByRole('textbox', { name: 'Invite link' })).toBeFocused();
  await sent.getByRole('button', { name: 'Done' }).click();
  const invited = organization.getByRole('listitem').filter({ hasText: 'focus-invitee@example.com' });
  await expectInitialFocus(page, invited.getByRole('button', { name: 'Remove' }), 'Remove Invite', (d) => d.getByRole('button', { name: 'Cancel' }));

  await page.getByRole('link', { name: 'Collections' }).click();
  await expectInitialFocus(page, page.getByRole('button', { name: 'New Collection' }), 'Create Collection', (d) => d.getByLabel('Collection Name'));

  await page.getByRole('link', { name: 'Billing' }).click();
  const billing = page.locator('[data-screen="billing"]');
  await expectInitialFocus(page, billing.getByRole('button', { name: 'Try now' }).first(), 'Confirm Starter Subscription', (d) => d.getByRole('button', { name: 'Cancel' }));
  await page.goto('/billing?recent_subscription_type=none');
  await expect(page.getByRole('dialog', { name: 'Sorry to see you go!' }).getByTestId('thank-you-close')).toBeFocused();
});

test('a collection and a permission are chosen with the keyboard alone', async ({ page }) => {
  const { session_token, api_key } = bootstrap('keyboard-owner@example.com', 'Keyboard Org');
  for (const name of ['alpha', 'bravo', 'charlie']) expect((await providerCall(api_key, '/collections/add-collection', { collection_name: name })).status).toBe(201);
  await openSignedIn(page, session_token, '/search');
  const search = page.locator('[data-screen="search"]');
  const picker = search.getByRole('combobox', { name: 'Collection' });
  await expect(picker).toHaveText('Please select a collection');
  // Tab from the page into the picker, open it with Enter, jump with typeahead, choose with Enter.
  await page.locator('body').focus();
  for (let tabs = 0; tabs < 30 && !(await picker.evaluate((element) => element === document.activeElement)); tabs += 1) await page.keyboard.press('Tab');
  await expect(picker).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.type('b');
  await expect(page.getByRole('option', { name: 'bravo' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(picker).toHaveText('bravo');
  await expect(search.getByText('Press enter to begin searching')).toBeVisible();
  // Arrow keys open the picker on the chosen collection and move on from it.
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: 'bravo' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: 'charlie' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(picker).toHaveText('charlie');

  await page.getByRole('link', { name: 'API Keys' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Add API Key' }).focus();
  await page.keyboard.press('Enter');
  const add = page.getByRole('dialog', { name: 'Add API Key' });
  await expect(add.getByLabel('API Key Name')).toBeFocused();
  await page.keyboard.type('Keyboard key');
  await page.keyboard.press('Tab');
  const permission = add.getByLabel('Permission Level');
  await expect(permission).toBeFocused();
  await expect(permission).toHaveText('Read Only');
  await page.keyboard.press('Space');
  // Keys typed before the list has opened would go to the closed picker.
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.type('all');
  await expect(page.getByRole('option', { name: 'All Permissions' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(permission).toHaveText('All Permissions');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(add.getByRole('button', { name: 'Create' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(add).toBeHidden();
  await expect(page.getByRole('row', { name: /Keyboard key/ }).getByRole('combobox')).toHaveText('All Permissions');
});
