// Risk covered: an open redirect after sign-in (?next= sending a user, fresh from typing a password,
// to another site, or by dot segments and encoded slashes to another surface of the same host), and
// page addresses built from unescaped ids.
import { describe, expect, it } from '@jest/globals';
import { home, modePath, safeNext } from './paths.ts';

describe('safeNext', () => {
  it('keeps a page of the dashboard', () => {
    expect(safeNext('/dashboard/live/payments?status=paid')).toBe('/dashboard/live/payments?status=paid');
    expect(safeNext('/dashboard/test/settings')).toBe('/dashboard/test/settings');
    expect(safeNext('/dashboard/test/payments?q=a%2Fb%20c')).toBe('/dashboard/test/payments?q=a%2Fb%20c');
  });

  it('answers the parser’s form of a page that stays in the dashboard after its dot segments', () => {
    expect(safeNext('/dashboard/live/x/../payments')).toBe('/dashboard/live/payments');
    expect(safeNext('/dashboard/test/./settings')).toBe('/dashboard/test/settings');
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
    // Dot segments that climb out of /dashboard/ to another surface on the same host (a paid payment's
    // page redirects on to the shop's success_url): plain, percent-encoded in any case, doubly encoded.
    '/dashboard/../pay/pay_01JD0000000000000000000000',
    '/dashboard/test/../../pay/pay_01JD0000000000000000000000',
    '/dashboard/%2e%2e/pay/pay_01JD0000000000000000000000',
    '/dashboard/%2E%2E/pay/pay_01JD0000000000000000000000',
    '/dashboard/.%2e/pay/pay_01JD0000000000000000000000',
    '/dashboard/%252e%252e/pay/pay_01JD0000000000000000000000',
    // Encoded slashes and backslashes, which a decoding proxy would turn into separators.
    '/dashboard/..%2fpay/pay_01JD0000000000000000000000',
    '/dashboard/..%2Fpay/pay_01JD0000000000000000000000',
    '/dashboard/%2e%2e%2fpay/pay_01JD0000000000000000000000',
    '/dashboard/..%5cpay/pay_01JD0000000000000000000000',
    '/dashboard/..%255cpay',
    '/%2F%2Fevil.example/dashboard/',
    '/%5C%5Cevil.example/dashboard/',
    '/dashboard/..//evil.example',
    '/dashboard%2f..%2f..%2fpay',
    '/dashboard%3F/../../pay/x',
    // Another host, however written.
    '//evil.example/dashboard/x',
    '/\\evil.example/dashboard/x',
    '\\\\evil.example/dashboard/x',
    'https:evil.example/dashboard/',
    // Malformed or absurd encodings.
    '/dashboard/%E0%A4%A',
    '/dashboard/%25252525252e',
  ])('sends %j home instead', (next) => {
    expect(safeNext(next)).toBe(home());
  });

  it('sends an absurdly long address home', () => {
    expect(safeNext(`/dashboard/${'a'.repeat(2100)}`)).toBe(home());
  });

  it('sends anything that is not a string home', () => {
    expect(safeNext(undefined)).toBe('/dashboard/test/overview');
    expect(safeNext(['/dashboard/live/payments'])).toBe('/dashboard/test/overview');
  });
});

describe('modePath', () => {
  it('escapes every segment', () => {
    expect(modePath('live', 'payments', 'pay_1/../x')).toBe('/dashboard/live/payments/pay_1%2F..%2Fx');
  });
});
