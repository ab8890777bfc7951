import { randomFillSync } from 'node:crypto';
import { encodeTime } from 'ulid';

/**
 * Object ids: a type prefix and a ULID. ULIDs sort by creation time (millisecond precision, and
 * monotonic within one process), so "newest first" lists order by id and ties never happen.
 */
export const ID_PREFIXES = {
  payment: 'pay_',
  event: 'evt_',
  customer: 'cus_',
  checkout: 'chk_',
  account: 'acct_',
  apiKey: 'key_',
  request: 'req_',
  webhookEndpoint: 'we_',
  webhookDelivery: 'whd_',
  deliveryAttempt: 'wha_',
  dashboardUser: 'usr_',
  mail: 'mail_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

// ulid's default source asks the OS for one random byte per character (16 calls per new
// millisecond): on the API's hot path that was 2–5 % of the gateway's CPU (docs/performance.md).
// The same cryptographic bytes, drawn from a buffer refilled 4 KB at a time.
const randomBytes = Buffer.alloc(4096);
let unusedFrom = randomBytes.length;
/** The next unused random byte, the buffer refilled when all are used (each byte is given out once). */
function nextRandomByte(): number {
  if (unusedFrom === randomBytes.length) {
    randomFillSync(randomBytes);
    unusedFrom = 0;
  }
  return randomBytes[unusedFrom++]!;
}

/** A random whole number of `bytes` bytes (at most 6, so exact as a number). */
function pooledRandom(bytes: number): number {
  let value = 0;
  for (let i = 0; i < bytes; i += 1) value = value * 256 + nextRandomByte();
  return value;
}

/**
 * `bytes` cryptographically random bytes in base64, from the same pool as the ids: a CSP nonce per page
 * answer (the pages) without a call into the OS and a new Buffer for each (docs/performance.md).
 */
export function randomBase64(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 256) throw new RangeError('randomBase64 takes 1 to 256 bytes');
  if (unusedFrom + bytes > randomBytes.length) {
    randomFillSync(randomBytes);
    unusedFrom = 0;
  }
  const from = unusedFrom;
  unusedFrom += bytes;
  return randomBytes.toString('base64', from, unusedFrom);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The 80-bit random part of a ULID (16 characters), as two 40-bit halves (exact as numbers). */
const HALF = 2 ** 40;
let lastTime = -1;
let lastHigh = 0;
let lastLow = 0;

function encodeHalf(value: number): string {
  let encoded = '';
  for (let i = 0; i < 8; i += 1) {
    encoded = CROCKFORD[value % 32]! + encoded;
    value = Math.floor(value / 32);
  }
  return encoded;
}

/**
 * A ULID, monotonic within this process like ulid's monotonicFactory — but where that adds 1 to
 * the random part for each further id of the same millisecond, this adds 1 plus 48 random bits.
 * Ids are capabilities (a `pay_` id opens the buyer's page of that payment): with +1, an id made in
 * the same millisecond as one's own — another merchant's payment, under load — was its neighbour,
 * found in a few guesses (docs/security.md, finding 3). 48 random bits per step keep a millisecond
 * from running out (2^32 steps at the least; past that the id takes the next millisecond).
 */
function nextUlid(now: number): string {
  let time = Math.max(now, lastTime);
  let high: number;
  let low: number;
  if (time === lastTime) {
    const step = 1 + pooledRandom(6);
    low = lastLow + (step % HALF);
    high = lastHigh + Math.floor(step / HALF) + (low >= HALF ? 1 : 0);
    if (low >= HALF) low -= HALF;
  } else {
    high = pooledRandom(5);
    low = pooledRandom(5);
  }
  if (high >= HALF) {
    time += 1;
    high = pooledRandom(5);
    low = pooledRandom(5);
  }
  lastTime = time;
  lastHigh = high;
  lastLow = low;
  return encodeTime(time, 10) + encodeHalf(high) + encodeHalf(low);
}
const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A new id of the given kind, e.g. newId('payment') → "pay_01JD3…". */
export function newId(kind: IdKind, now: number = Date.now()): string {
  return ID_PREFIXES[kind] + nextUlid(now);
}

/** True when `value` has the shape of an id of this kind (it says nothing of whether it exists). */
export function isId(kind: IdKind, value: string): boolean {
  const prefix = ID_PREFIXES[kind];
  return value.startsWith(prefix) && ULID_PATTERN.test(value.slice(prefix.length));
}
