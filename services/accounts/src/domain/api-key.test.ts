import { describe, expect, it } from '@jest/globals';
import { generateApiKey, hashApiKey, isWellFormedApiKey, keyHint } from './api-key.ts';
import { isPayoutWallet } from './merchant-account.ts';

describe('API keys', () => {
  it('carry their mode and 32 random base62 characters', () => {
    const key = generateApiKey('test');
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(generateApiKey('live')).toMatch(/^sk_live_/);
    expect(generateApiKey('test')).not.toBe(key);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it.each([
    '',
    'sk_test_short',
    'pk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'sk_prod_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!',
  ])('recognise %j as malformed', (value) => {
    expect(isWellFormedApiKey(value)).toBe(false);
  });

  it('are stored as sha256 hashes, one per key', () => {
    const key = generateApiKey('live');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toBe(hashApiKey(generateApiKey('live')));
  });

  it('show only a hint after creation', () => {
    const key = generateApiKey('test');
    expect(keyHint(key)).toBe(`sk_test_…${key.slice(-4)}`);
  });
});

describe('payout wallets', () => {
  it('are Polygon addresses', () => {
    expect(isPayoutWallet('0x' + 'a'.repeat(40))).toBe(true);
    expect(isPayoutWallet('0x' + 'a'.repeat(39))).toBe(false);
    expect(isPayoutWallet('bc1qxyz')).toBe(false);
  });
});
