import { expect, test } from 'vitest';
import { selectOrganization } from '@/lib/organization-selection';

const ids = ['a', 'b', 'c'];
test('the requested organization wins', () => expect(selectOrganization(ids, 'c', 'b')).toBe('c'));
test('else the one remembered in local storage', () => expect(selectOrganization(ids, null, 'b')).toBe('b'));
test('else the first', () => expect(selectOrganization(ids, null, null)).toBe('a'));
test('an id the user no longer belongs to is skipped', () => expect(selectOrganization(ids, 'gone', 'also-gone')).toBe('a'));
test('none when the user has no organization', () => expect(selectOrganization([], 'a', 'b')).toBeNull());
