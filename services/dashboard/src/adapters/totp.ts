import { generateSecret, generateURI, verify } from 'otplib';
import { unixSeconds } from '@hc/conversions';

/** RFC 6238 codes (otplib): 6 digits, 30-second steps, SHA-1, as every authenticator app expects. */
const PERIOD_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// address an authenticator app reads (typed in, or as a QR code). */
export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: 'Hosted Checkout', label: email, secret });
}

/**
 * The time step of a valid code (one step either side of now is accepted for clock drift), or null.
 * The caller refuses a step at or before the last one accepted, so each code works once.
 */
export async function acceptedStep(secret: string, code: string, now: Date): Promise<number | null> {
  const token = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(token)) return null;
  const epoch = unixSeconds(now);
  const result = await verify({ secret, token, epoch, epochTolerance: PERIOD_SECONDS });
  if (!result.valid) return null;
  return 'timeStep' in result && typeof result.timeStep === 'number' ? result.timeStep : Math.floor(epoch / PERIOD_SECONDS);
}
