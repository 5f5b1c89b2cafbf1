import { expect, test } from 'vitest';
import { maskApiKey } from '@/features/api-keys/mask-api-key';

test('keys of 8 characters or fewer are fully starred', () => {
  expect(maskApiKey('abcdefgh')).toBe('********');
  expect(maskApiKey('abc')).toBe('***');
});

test('longer keys show the first 4 and last 4 characters', () => {
  expect(maskApiKey('abcdefghi')).toBe('abcd*fghi');
  expect(maskApiKey('sift_0123456789abcdef')).toBe('sift*************cdef');
});
