import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

// ulid's default source asks the OS for one random byte per character (16 calls per new
// millisecond): on the API's hot path that was 2–5 % of the gateway's CPU (docs/performance.md).
// The same cryptographic bytes, drawn from a buffer refilled 4 KB at a time.
const randomBytes = new Uint8Array(4096);
let unusedFrom = randomBytes.length;
function pooledRandom(): number {
  if (unusedFrom === randomBytes.length) {
    randomFillSync(randomBytes);
    unusedFrom = 0;
  }
  return randomBytes[unusedFrom++]! / 256;
}

const nextUlid = monotonicFactory(pooledRandom);
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
