import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { fakeServer, ids, organizationRoutes, refusal, renderInApp, signedInEachTest } from '@/test/fake-server';
import { OrganizationScreen } from '@/features/organization/components/organization-screen';
import { chooseOption } from '@/test/choose-option';

signedInEachTest();

const renderScreen = () => renderInApp(<OrganizationScreen />);

test('the loaded view: prefixed id, members with You and permission badges, pending invites', async () => {
  fakeServer(organizationRoutes('OWNER'));
  renderScreen();
  expect(screen.getByText('Loading...')).toBeTruthy();
  expect(await screen.findByText(`org-${ids.organization}`)).toBeTruthy();
  expect(screen.getByText('You')).toBeTruthy();
  expect(screen.getByText('Invite Sent')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Leave' })).toBeTruthy();
  expect(screen.getAllByRole('button', { name: 'Remove' })).toHaveLength(2);
});

test('a member sees only badges, and inviting asks for permission', async () => {
  const user = userEvent.setup();
  fakeServer(organizationRoutes('MEMBER'));
  renderScreen();
  await screen.findByText(`org-${ids.organization}`);
  expect(screen.queryByRole('button', { name: /Leave|Remove|Delete Organization/ })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Invite Member' }));
  const dialog = await screen.findByRole('dialog', { name: 'Permission Required' });
  expect(dialog.textContent).toContain(
    'Only organization owners can add new members. Please contact an owner to invite new users to this organization.',
  );
});

test('failed member actions alert with the server detail', async () => {
  const user = userEvent.setup();
  fakeServer({
    ...organizationRoutes('OWNER'),
    '/api/organizations/users/invite-user': refusal(422, 'bob@example.com is already a member of this organization.'),
    '/api/organizations/users/update-user': refusal(403, 'Only organization owners can manage members.'),
    '/api/organizations/users/remove-user': refusal(404, 'Member not found.'),
    '/api/organizations/users/delete-invite-user': refusal(404, 'Invite not found.'),
    '/api/organizations/update-organization': refusal(403, 'Only organization owners can rename or delete the organization.'),
  });
  renderScreen();
  await screen.findByText(`org-${ids.organization}`);

  await user.click(screen.getByRole('button', { name: 'Invite Member' }));
  await user.type(await screen.findByLabelText('Email'), 'bob@example.com{Enter}');
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to send invitation: bob@example.com is already a member of this organization.'));
  await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));

  await chooseOption(user, screen.getByLabelText('Permission of Bob'), 'OWNER');
  await user.click(within(await screen.findByRole('dialog', { name: 'Change Permission' })).getByRole('button', { name: 'Change Permission' }));
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to update user permission: Only organization owners can manage members.'));
  // The refusal closes its confirmation.
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  const bob = screen.getByText('bob@example.com').closest('li')!;
  await user.click(within(bob).getByRole('button', { name: 'Remove' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Remove User' })).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to remove user: Member not found.'));
  // The refusal closes its confirmation.
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  const pending = screen.getByText('pending@example.com').closest('li')!;
  await user.click(within(pending).getByRole('button', { name: 'Remove' }));
  await user.click(within(await screen.findByRole('dialog', { name: 'Remove Invite' })).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(window.alert).toHaveBeenCalledWith('Failed to remove invite: Invite not found.'));
  // The refusal closes its confirmation.
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

  await user.click(screen.getByRole('button', { name: 'Edit Organization Name' }));
  const nameField = await screen.findByLabelText('Organization Name');
  await user.clear(nameField);
  await user.type(nameField, 'Renamed{Enter}');
  await waitFor(() =>
    expect(window.alert).toHaveBeenCalledWith('Failed to update organization name: Only organization owners can rename or delete the organization.'),
  );
});

test('a failed delete shows inline; a wrong id is refused before any call', async () => {
  const user = userEvent.setup();
  const calls = fakeServer({ ...organizationRoutes('OWNER'), '/api/organizations/delete-organization': refusal(500, 'Internal server error') });
  renderScreen();
  await screen.findByText(`org-${ids.organization}`);
  await user.click(screen.getByRole('button', { name: 'Delete Organization' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete Organization' });
  await user.type(within(dialog).getByLabelText('Organization ID'), 'org-nope{Enter}');
  expect(within(dialog).getByRole('alert').textContent).toBe('Organization ID does not match. Please enter the correct ID.');
  expect(calls.some((call) => call.path.endsWith('delete-organization'))).toBe(false);
  await user.clear(within(dialog).getByLabelText('Organization ID'));
  await user.type(within(dialog).getByLabelText('Organization ID'), ` org-${ids.organization} {Enter}`);
  await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Failed to delete organization: Internal server error'));
});

test('with no organization the screen shows the error form with the create-an-organization message', async () => {
  fakeServer({ ...organizationRoutes('OWNER'), '/api/users/get-user': () => ({ body: { user: { id: ids.user, name: 'Ada', email: 'ada@example.com' }, organizations: [] } }) });
  renderScreen();
  expect((await screen.findByText(/There are no organizations/)).textContent).toBe(
    'Error: There are no organizations associated with your account. Please create an organization using the drop-down menu at the top. Thank you!',
  );
  expect(screen.getByRole('heading', { name: 'Organization' })).toBeTruthy();
});
