import { describe, expect, it } from '@jest/globals';
import { bearerToken, hashApiKey, isWellFormedApiKey } from './bearer-key.ts';

describe('a bearer key', () => {
  it.each(['sk_test_' + 'a'.repeat(32), 'sk_live_' + '0aZ'.repeat(10) + 'zz'])('recognises %j', (value) => {
    expect(isWellFormedApiKey(value)).toBe(true);
  });

  it.each([
    '',
    'sk_test_short',
    'pk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'sk_prod_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!',
  ])('refuses %j as malformed', (value) => {
    expect(isWellFormedApiKey(value)).toBe(false);
  });

  it('is looked up by its sha256, hex (the hash the accounts context stores)', () => {
    expect(hashApiKey('sk_test_' + 'a'.repeat(32))).toBe('654a7bcb23f05395e037d51904cacfc353aa386e3ef60a9a44c74c928115abae');
  });
});

describe('bearerToken', () => {
  it('reads "Bearer <token>" in any case of the scheme', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
  });
  it.each([undefined, '', 'Basic abc', 'Bearer', 'Bearer a b', 'abc'])('finds no token in %j', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});
