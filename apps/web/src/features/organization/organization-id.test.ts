import { expect, test } from 'vitest';
import { confirmsOrganizationId, displayOrganizationId } from '@/features/organization/organization-id';

const id = '6f1c3a52-1a9b-4c1e-9a4f-0f2f3b1d2c3e';
test('ids are shown with the org- prefix', () => expect(displayOrganizationId(id)).toBe(`org-${id}`));
test('the delete check accepts the id with or without the prefix, trimmed', () => {
  expect(confirmsOrganizationId(`  org-${id} `, id)).toBe(true);
  expect(confirmsOrganizationId(id, id)).toBe(true);
});
test('the delete check refuses anything else', () => {
  expect(confirmsOrganizationId(`org-${id}x`, id)).toBe(false);
  expect(confirmsOrganizationId('', id)).toBe(false);
});
