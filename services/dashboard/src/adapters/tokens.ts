import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret for a cookie or a one-time link: 32 bytes, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored for a secret: its SHA-256, so a read of the table yields no usable cookie or link. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
