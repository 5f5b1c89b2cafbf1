import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { fakeServer, organizationRoutes, refusal, renderInApp, signedInEachTest } from '@/test/fake-server';
import { ApiKeysScreen } from '@/features/api-keys/components/api-keys-screen';
import { chooseOption } from '@/test/choose-option';

signedInEachTest();

const renderScreen = () => renderInApp(<ApiKeysScreen />);

test('keys show masked with their UTC creation date; a billing failure does not block the screen', async () => {
  fakeServer(organizationRoutes('OWNER'));
  renderScreen();
  const row = await screen.findByRole('row', { name: /Prod/ });
  // The masked key is one element (its parts are spans so the stars can give way).
  expect(within(row).getByText((_, element) => element?.tagName === 'CODE' && element.textContent === 'sift*************mnop')).toBeTruthy();
  expect(within(row).getByText('January 2, 2026 at 3:04 PM UTC')).toBeTruthy();
});

test('every failed key change alerts with the server detail', async () => {
  const user = userEvent.setup();
  fakeServer({
    ...organizationRoutes('OWNER'),
    '/api/organizations/api-keys/add-api-key': refusal(500, 'disk full'),
    '/api/organizations/api-keys/update-api-key': refusal(404, 'API key not found.'),
    '/api/organizations/api-keys/delete-api-key': refusal(404, 'API key not found.'),
  });
  renderScreen();
  const row = await screen.findByRole('row', { name: /Prod/ });

  await user.click(screen.getByRole('button', { name: 'Add API Key' }));
  await user.type(await screen.findByLabelText('API Key Name'), 'New{Enter}');
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to create API key: disk full'));
  await user.click(screen.getByRole('button', { name: 'Cancel' }));

  await user.click(within(row).getByRole('button', { name: 'Rename Prod' }));
  await user.type(within(row).getByLabelText('API key name'), '2{Enter}');
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to update API key name: API key not found.'));
  await user.click(within(row).getByRole('button', { name: 'Cancel rename' }));

  await chooseOption(user, within(row).getByLabelText('Permission of Prod'), 'All Permissions');
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to update API key: API key not found.'));

  await user.click(within(row).getByRole('button', { name: 'Delete Prod' }));
  await user.click(await screen.findByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to delete API key: API key not found.'));
});

test('a member sees permissions as labels and is told only owners manage keys', async () => {
  const user = userEvent.setup();
  const calls = fakeServer(organizationRoutes('MEMBER'));
  renderScreen();
  const row = await screen.findByRole('row', { name: /Prod/ });
  expect(within(row).getByText('Read Only')).toBeTruthy();
  expect(within(row).queryByRole('button', { name: /Delete|Rename/ })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Add API Key' }));
  expect(window.alert).toHaveBeenCalledWith('Only organization owners can manage API keys.');
  expect(calls.some((call) => call.path.includes('add-api-key'))).toBe(false);
});

test('an organization answer that breaks the contract is an invalid response format error', async () => {
  fakeServer({
    ...organizationRoutes('OWNER'),
    '/api/organizations/get-info': () => ({ body: { id: 'not-a-uuid', name: 'Acme' } }),
  });
  renderScreen();
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toMatch(
    /^Could not load \.\.\. organization connection\. Please check your internet connection or contact support if the problem persists\. Error: invalid response format: /,
  );
});

test('a failed organization fetch names its status', async () => {
  fakeServer({ ...organizationRoutes('OWNER'), '/api/organizations/get-info': refusal(503, 'down') });
  renderScreen();
  expect((await screen.findByRole('alert')).textContent).toContain('Error: Failed to fetch organization info: 503');
});
