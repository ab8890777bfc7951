import { describe, expect, it } from '@jest/globals';
import { LINK_LIFETIME, linkLifetimeMs } from './payment-link.ts';

describe('linkLifetimeMs', () => {
  it('takes minutes, hours and days from 1 hour to 90 days, 7 days when absent', () => {
    expect(linkLifetimeMs(undefined)).toBe(LINK_LIFETIME.defaultMs);
    expect(linkLifetimeMs('60m')).toBe(LINK_LIFETIME.minMs);
    expect(linkLifetimeMs('1h')).toBe(LINK_LIFETIME.minMs);
    expect(linkLifetimeMs('90d')).toBe(LINK_LIFETIME.maxMs);
    expect(linkLifetimeMs('2160h')).toBe(LINK_LIFETIME.maxMs);
  });

  it('refuses the rest with invalid_lifetime on lifetime', () => {
    for (const raw of ['59m', '91d', '2161h', '0d', '-1d', '1.5d', '7', 'd', '7 days', '']) {
      expect(() => linkLifetimeMs(raw)).toThrow(expect.objectContaining({ code: 'invalid_lifetime', field: 'lifetime' }));
    }
  });
});
