import { describe, expect, test } from 'vitest';
import { resolveRoute, withInviteCarriedOver } from '@/lib/routes';

describe('routing by the first path segment', () => {
  test('a known segment is its route', () => {
    expect(resolveRoute('/collections/x', '', true)).toEqual({ route: 'collections' });
  });
  test('an unknown segment goes to api-keys when signed in, keeping the query', () => {
    expect(resolveRoute('/nowhere', '?invite=abc', true)).toEqual({ route: 'api-keys', redirect: '/api-keys?invite=abc' });
  });
  test('an unknown segment goes to login when signed out', () => {
    expect(resolveRoute('/', '?a=1', false)).toEqual({ route: 'login', redirect: '/login?a=1' });
  });
  test('signed out, every route but login goes to login', () => {
    expect(resolveRoute('/billing', '?recent_subscription_type=starter', false)).toEqual({
      route: 'login',
      redirect: '/login?recent_subscription_type=starter',
    });
  });
  test('signed in, login goes to api-keys', () => {
    expect(resolveRoute('/login', '', true)).toEqual({ route: 'api-keys', redirect: '/api-keys' });
  });
});

describe('whole-browser redirects', () => {
  test('carry the invite parameter, URL-encoded, when the target has no query', () => {
    expect(withInviteCarriedOver('/auth/google/login', '?invite=a.b%2Bc')).toBe('/auth/google/login?invite=a.b%2Bc');
  });
  test('leave a target with a query alone', () => {
    expect(withInviteCarriedOver('/x?y=1', '?invite=abc')).toBe('/x?y=1');
  });
  test('leave the target alone without an invite', () => {
    expect(withInviteCarriedOver('/x', '?other=1')).toBe('/x');
  });
});
