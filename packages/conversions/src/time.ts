/**
 * Time on the wire is whole unix seconds (the spec's `created`, `expires_at`, the protos' int64
 * fields, a webhook's timestamp, a TOTP step's epoch): rounded down, so a moment never reads as later
 * than it was.
 */
export function unixSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** The same, as a proto int64. */
export function unixSecondsBig(at: Date): bigint {
  return BigInt(unixSeconds(at));
}

/** The moment of unix seconds, from an API number or a proto int64. */
export function fromUnixSeconds(seconds: number | bigint): Date {
  return new Date(Number(seconds) * 1000);
}
