import { UnsecuredJWT } from 'jose';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fakeServer, ids, organizationRoutes } from '@/test/fake-server';
import { App } from '@/app/app';
import { AppProviders } from '@/app/providers';

const invite = new UnsecuredJWT({ org_id: ids.organization, org_name: 'Acme', from_email: 'olivia@example.com', token: 't', exp: 2_000_000_000 }).encode();

beforeEach(() => {
  localStorage.setItem('sift.session_token', 'token');
  vi.spyOn(window, 'alert').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const renderApp = (path: string) => {
  window.history.replaceState(null, '', path);
  return render(
    <AppProviders>
      <App />
    </AppProviders>,
  );
};

test("while the user's profile loads, a full 'Loading...' screen shows", async () => {
  fakeServer(organizationRoutes('OWNER'));
  renderApp('/api-keys');
  expect(screen.getByRole('status').textContent).toBe('Loading...');
  expect(await screen.findByRole('heading', { name: 'API Keys' })).toBeTruthy();
});

test('a failed profile fetch logs out to login, keeping the query', async () => {
  fakeServer({ ...organizationRoutes('OWNER'), '/api/users/get-user': () => ({ status: 401, body: { detail: 'Invalid or expired session' } }) });
  renderApp('/billing?x=1');
  expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  expect(window.location.pathname + window.location.search).toBe('/login?x=1');
  expect(localStorage.getItem('sift.session_token')).toBeNull();
});

test('the invite dialog names who invited and where; a refused accept alerts with the detail', async () => {
  const user = userEvent.setup();
  fakeServer({ ...organizationRoutes('OWNER'), '/api/organizations/users/accept-invite': () => ({ status: 422, body: { detail: 'This invitation is invalid or has expired.' } }) });
  renderApp(`/api-keys?invite=${invite}`);
  // The dialog's code loads on first open: give a busy machine time.
  const dialog = await screen.findByRole('dialog', { name: 'Organization Invitation' }, { timeout: 10_000 });
  expect(dialog.textContent).toContain('olivia@example.com has invited you to join Acme.');
  await user.click(screen.getByRole('button', { name: 'Accept' }));
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to accept invite: This invitation is invalid or has expired.'));
  await user.click(screen.getByRole('button', { name: 'Decline' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(window.location.search).toBe('');
});

test('an invite token without the invite payload is dropped from the address silently', async () => {
  fakeServer(organizationRoutes('OWNER'));
  renderApp(`/api-keys?invite=${new UnsecuredJWT({ org_id: 'x' }).encode()}&keep=1`);
  await screen.findByRole('heading', { name: 'API Keys' });
  await waitFor(() => expect(window.location.search).toBe('?keep=1'));
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('creating an organization from the header reports a refusal in an alert', async () => {
  const user = userEvent.setup();
  fakeServer({ ...organizationRoutes('OWNER'), '/api/organizations/add-organization': () => ({ status: 422, body: { detail: 'name: must not be blank' } }) });
  renderApp('/api-keys');
  await user.click(await screen.findByRole('button', { name: /^Organization:/ }));
  await user.click(await screen.findByRole('menuitem', { name: 'Add Organization' }));
  const name = await screen.findByLabelText('Organization Name');
  expect(screen.getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(true);
  await user.type(name, 'X{Enter}');
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Error Creating Organization: name: must not be blank'));
});

test('a refused marketplace organization shows the server detail in red under the input, keeping the token', async () => {
  const user = userEvent.setup();
  localStorage.setItem('sift.aws_marketplace_token', 'aws-token');
  const calls = fakeServer({
    ...organizationRoutes('OWNER'),
    '/api/organizations/add-organization': () => ({ status: 409, body: { detail: 'This marketplace subscription is already linked.' } }),
  });
  renderApp('/api-keys');
  const dialog = await screen.findByRole('dialog', { name: 'Welcome to Sift from AWS Marketplace!' });
  await user.type(screen.getByPlaceholderText('Enter organization name'), 'Market{Enter}');
  await waitFor(() => expect(dialog.querySelector('[role="alert"]')?.textContent).toBe('This marketplace subscription is already linked.'));
  expect(calls.find((call) => call.path.endsWith('add-organization'))?.body).toEqual({ name: 'Market', aws_marketplace_token: 'aws-token' });
  expect(localStorage.getItem('sift.aws_marketplace_token')).toBe('aws-token');
});
