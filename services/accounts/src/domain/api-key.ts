import { createHash, randomBytes } from 'node:crypto';

export type Mode = 'test' | 'live';

/**
 * Secret API keys: "sk_test_" or "sk_live_" followed by 32 base62 characters (~190 bits). The mode
 * is part of the key so a merchant can tell keys apart; the gateway still takes the mode from the
 * stored key, never from the text. Only a sha256 hash is stored; the key is shown once.
 */
const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function generateApiKey(mode: Mode): string {
  let body = '';
  // Rejection sampling keeps every character equally likely (248 = 4 × 62).
  while (body.length < 32) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && body.length < 32) body += BASE62[byte % 62];
    }
  }
  return `sk_${mode}_${body}`;
}

export function isWellFormedApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What the dashboard shows of a key after creation: "sk_test_…a1b2". */
export function keyHint(key: string): string {
  const mode = key.startsWith('sk_live_') ? 'live' : 'test';
  return `sk_${mode}_…${key.slice(-4)}`;
}
