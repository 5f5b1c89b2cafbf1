import { UnsecuredJWT } from 'jose';
import { expect, test } from 'vitest';
import { decodeInvite } from '@/features/invites/decode-invite';

const payload = {
  org_id: '6f1c3a52-1a9b-4c1e-9a4f-0f2f3b1d2c3e',
  org_name: 'Acme',
  from_email: 'owner@acme.test',
  token: 'abc',
  exp: 2_000_000_000,
};
const encode = (claims: Record<string, unknown>) => new UnsecuredJWT(claims).encode();

test('a token with the invite payload shape decodes', () => {
  expect(decodeInvite(encode(payload))).toEqual(payload);
});

test('a token missing a field or with a bad e-mail is discarded', () => {
  expect(decodeInvite(encode({ ...payload, from_email: 'nope' }))).toBeNull();
  const { token: _token, ...withoutToken } = payload;
  expect(decodeInvite(encode(withoutToken))).toBeNull();
});

test('garbage is discarded', () => {
  expect(decodeInvite('not-a-jwt')).toBeNull();
});
