import { expect, type Page, test } from '@playwright/test';
import { bootstrap, dashboardCall, openSignedIn } from './fixtures';

const shot = (page: Page, name: string) => (process.env.E2E_SCREENSHOTS ? page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true }) : undefined);
const planCard = (page: Page, name: string) => page.getByRole('article', { name: `${name} plan` });
const invoiceRows = (page: Page) => page.getByRole('table').getByRole('row');

/** From the plan card's button through the confirmation modal to Sift's local checkout page. */
async function choosePlan(page: Page, plan: 'Starter' | 'Teams', button: string) {
  await planCard(page, plan).getByRole('button', { name: button }).click();
  const confirm = page.getByRole('dialog', { name: `Confirm ${plan} Subscription` });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: `Subscribe to ${plan}` })).toBeVisible();
}

async function closeThankYou(page: Page, title: string) {
  const thanks = page.getByRole('dialog', { name: title });
  await expect(thanks).toBeVisible();
  await thanks.getByTestId('thank-you-close').click();
  await expect(thanks).toBeHidden();
  await expect(page).toHaveURL(/\/billing$/);
}

test('an owner subscribes to Starter through the local checkout, upgrades to Teams and cancels', async ({ page }) => {
  const { session_token: token } = bootstrap('billing-owner@example.com', 'Billing Org', 'Bill Owner');
  await openSignedIn(page, token, '/billing');

  await expect(page.getByRole('heading', { name: 'Models' })).toBeVisible();
  await expect(page.getByText('$0.025 per million tokens')).toBeVisible();
  await expect(page.getByText('No results.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel plan' })).toHaveCount(0);
  await expect(planCard(page, 'Teams').getByRole('button', { name: 'Try now' })).toBeEnabled();
  await expect(planCard(page, 'Enterprise').getByRole('link', { name: 'Book a call' })).toBeVisible();
  await shot(page, 'billing-none');

  // The checkout's Cancel returns to Billing and changes nothing.
  await choosePlan(page, 'Starter', 'Try now');
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText('No results.')).toBeVisible();

  await choosePlan(page, 'Starter', 'Try now');
  await expect(page.getByTestId('checkout-price')).toHaveText('$50.00 / month');
  await expect(page.getByTestId('checkout-trial')).toContainText('Free for 2 weeks');
  await shot(page, 'billing-checkout');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/billing\?recent_subscription_type=starter$/);
  await shot(page, 'billing-thanks');
  await closeThankYou(page, 'Thanks for subscribing!');

  await expect(planCard(page, 'Starter').getByRole('button', { name: 'Current plan' })).toBeDisabled();
  await expect(planCard(page, 'Starter')).toContainText('Free trial until');
  await expect(invoiceRows(page)).toHaveCount(2);
  await expect(invoiceRows(page).nth(1)).toContainText('Starter');
  await expect(invoiceRows(page).nth(1)).toContainText('$0.00');
  await expect(page.getByRole('button', { name: 'Cancel plan' })).toBeVisible();

  await choosePlan(page, 'Teams', 'Upgrade');
  await expect(page.getByTestId('checkout-price')).toHaveText('$500.00 / month');
  await expect(page.getByTestId('checkout-trial')).toContainText('No free trial');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await closeThankYou(page, 'Thanks for subscribing!');
  await expect(planCard(page, 'Teams').getByRole('button', { name: 'Current plan' })).toBeDisabled();
  await expect(planCard(page, 'Starter').getByRole('button', { name: 'Downgrade' })).toBeEnabled();
  await expect(invoiceRows(page)).toHaveCount(3);
  await expect(invoiceRows(page).nth(1)).toContainText('Teams');
  await expect(invoiceRows(page).nth(1)).toContainText('$500.00');
  await shot(page, 'billing-teams');

  await page.getByRole('button', { name: 'Cancel plan' }).click();
  const cancel = page.getByRole('dialog', { name: 'Confirm Plan Cancellation' });
  await cancel.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page).toHaveURL(/\/billing\?recent_subscription_type=none$/);
  await expect(page.getByRole('dialog', { name: 'Sorry to see you go!' })).toBeVisible();
  await shot(page, 'billing-sorry');
  await closeThankYou(page, 'Sorry to see you go!');
  // The plan stays until the end of the period it was cancelled in.
  await expect(page.getByText(/Your plan ends on/)).toBeVisible();
});

test('a member who tries to subscribe is told that only owners can', async ({ page }) => {
  const owner = bootstrap('billing-boss@example.com', 'Member Billing Org');
  const member = bootstrap('billing-member@example.com', 'Member Own Org');
  const invite = await dashboardCall(owner.session_token, '/api/organizations/users/invite-user', {
    organization_id: owner.organization_id,
    email: 'billing-member@example.com',
    permission: 'MEMBER',
  });
  const inviteJwt = new URL(invite.body.invite_url).searchParams.get('invite');
  expect((await dashboardCall(member.session_token, '/api/organizations/users/accept-invite', { invite_jwt: inviteJwt })).status).toBe(200);
  await page.addInitScript((organizationId) => localStorage.setItem('sift.selected_organization_id', organizationId), owner.organization_id);
  await openSignedIn(page, member.session_token, '/billing');

  await expect(page.getByRole('button', { name: /^Organization:/ })).toHaveText(/Member Billing Org/);
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await planCard(page, 'Teams').getByRole('button', { name: 'Try now' }).click();
  await page.getByRole('dialog', { name: 'Confirm Teams Subscription' }).getByRole('button', { name: 'Confirm' }).click();
  await expect.poll(() => alerts).toEqual(['Failed to subscribe: Only organization owners can change or cancel the billing plan.']);
  await expect(page.getByRole('dialog', { name: 'Confirm Teams Subscription' })).toBeHidden();
  await expect(page).toHaveURL(/\/billing$/);
});
