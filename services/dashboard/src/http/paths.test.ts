// Risk covered: an open redirect after sign-in (?next= sending a user, fresh from typing a password,
// to another site), and page addresses built from unescaped ids.
import { describe, expect, it } from '@jest/globals';
import { home, modePath, safeNext } from './paths.ts';

describe('safeNext', () => {
  it('keeps a page of the dashboard', () => {
    expect(safeNext('/dashboard/live/payments?status=paid')).toBe('/dashboard/live/payments?status=paid');
    expect(safeNext('/dashboard/test/settings')).toBe('/dashboard/test/settings');
  });

  it.each([
    'https://evil.example/dashboard/',
    '//evil.example/dashboard/',
    '/\\evil.example',
    '/dashboard\\@evil.example',
    '/dashboard/\\\\evil.example',
    '/dashboard/%0d%0aSet-Cookie: x',
    '/dashboard/ x',
    '/dashboard/\tx',
    'javascript:alert(1)',
    '/v1/payments',
    '/dashboardx/test',
    '',
  ])('sends %j home instead', (next) => {
    expect(safeNext(next)).toBe(home());
  });

  it('sends anything that is not a string home', () => {
    expect(safeNext(undefined)).toBe('/dashboard/test/payments');
    expect(safeNext(['/dashboard/live/payments'])).toBe('/dashboard/test/payments');
  });
});

describe('modePath', () => {
  it('escapes every segment', () => {
    expect(modePath('live', 'payments', 'pay_1/../x')).toBe('/dashboard/live/payments/pay_1%2F..%2Fx');
  });
});
