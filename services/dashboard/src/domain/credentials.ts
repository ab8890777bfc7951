import { normalEmailAddress } from '@hc/conversions';

/**
 * What a dashboard user's email and password must be. Pure rules: hashing lives in src/auth.
 */

/** Lower-cased and trimmed, or null when it is not an email address we would send mail to (the platform's one rule). */
export function normalEmail(raw: string): string | null {
  return normalEmailAddress(raw) ?? null;
}

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * Length is what makes a password strong (NIST SP 800-63B): 12 to 200 characters, not a well-known
 * password and not the email itself. No composition rules, which only make passwords predictable.
 */
export function passwordProblem(password: string, email: string): string | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if ([...password].length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const lowered = password.toLowerCase();
  if (lowered === email || COMMON_PASSWORDS.has(lowered)) return 'That password is too easy to guess; choose another.';
  if (new Set(password).size < 4) return 'That password is too easy to guess; choose another.';
  return null;
}

// The long ones among the most common leaked passwords (shorter ones fail the length rule anyway).
const COMMON_PASSWORDS = new Set([
  '123456789012',
  '1234567890123',
  'qwertyuiopasdf',
  'passwordpassword',
  'password1234',
  'password12345',
  'password123456',
  'iloveyou1234',
  'administrator',
  'qwerty123456',
  '1q2w3e4r5t6y',
  'letmein12345',
  'welcome12345',
  'changeme1234',
]);
