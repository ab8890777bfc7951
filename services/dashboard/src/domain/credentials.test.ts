// Risk covered: a dashboard account made with an address we cannot mail or a password that is easy to
// guess (short, common, the email itself, one repeated character), or a long passphrase refused.
import { describe, expect, it } from '@jest/globals';
import { normalEmail, passwordProblem, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './credentials.ts';

describe('normalEmail', () => {
  it('trims and lower-cases an address', () => {
    expect(normalEmail('  Owner@Shop.Example ')).toBe('owner@shop.example');
  });

  it.each([
    '',
    'owner',
    'owner@shop',
    '@shop.example',
    'owner@',
    'a b@shop.example',
    '<owner>@shop.example',
    `${'a'.repeat(250)}@x.io`,
    'owner@[127.0.0.1]',
    'owner>@shop.example',
  ])('refuses %j', (raw) => {
    expect(normalEmail(raw)).toBeNull();
  });
});

describe('passwordProblem', () => {
  const email = 'owner@shop.example';

  it('accepts a long enough passphrase with no composition rules', () => {
    expect(passwordProblem('correct horse battery staple', email)).toBeNull();
    expect(passwordProblem('a'.repeat(4) + 'bcdefghi', email)).toBeNull();
  });

  it('counts characters, not UTF-16 units, at both ends', () => {
    const emoji = '🔒🔑🛡️✅';
    expect([...emoji.repeat(3)].length).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
    expect(passwordProblem(emoji.repeat(3), email)).toBeNull();
    expect(passwordProblem('🔒🔑🛡✅🔒🔑🛡✅🔒🔑🛡', email)).toBe(`Use at least ${PASSWORD_MIN_LENGTH} characters.`);
    expect(passwordProblem('abcd'.repeat(PASSWORD_MAX_LENGTH / 4), email)).toBeNull();
    expect(passwordProblem('abcd'.repeat(PASSWORD_MAX_LENGTH / 4) + 'e', email)).toBe(`Use at most ${PASSWORD_MAX_LENGTH} characters.`);
  });

  it('refuses a short password, a well-known one, the email itself and one of a few repeated characters', () => {
    expect(passwordProblem('short-pass1', email)).toBe(`Use at least ${PASSWORD_MIN_LENGTH} characters.`);
    const guessable = 'That password is too easy to guess; choose another.';
    expect(passwordProblem('PasswordPassword', email)).toBe(guessable);
    expect(passwordProblem('owner@shop.example', email)).toBe(guessable);
    expect(passwordProblem('OWNER@SHOP.EXAMPLE', email)).toBe(guessable);
    expect(passwordProblem('abcabcabcabcabc', email)).toBe(guessable);
    expect(passwordProblem('zzzzzzzzzzzzzzzz', email)).toBe(guessable);
  });
});
