import { createHash } from 'node:crypto';

// Crockford's base32, the alphabet of ULIDs: ids derived here look like every other evt_ id.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_LENGTH = 26;

/**
 * The `evt_` id of the webhook event made from a source event. Derived, not random: a redelivered
 * or re-published source event yields the same id, so it can never become a second webhook event
 * (the unique source_msg_id backs this up in the database). 26 base32 characters = 130 bits of a
 * SHA-256 of the source message id.
 */
export function webhookEventId(sourceMsgId: string): string {
  const digest = createHash('sha256').update(`hc-webhook-event:${sourceMsgId}`).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < ULID_LENGTH) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === ULID_LENGTH) break;
  }
  return `evt_${out}`;
}
