/**
 * The wait an endpoint asked for in `Retry-After` (RFC 9110: delay-seconds or an HTTP-date), in ms
 * from `now`, capped at `capMs` so a receiver cannot park a delivery for months. Null when the header
 * is absent or unreadable; a date in the past means no extra wait (0).
 */
export function parseRetryAfter(header: string | undefined, now: Date, capMs: number): number | null {
  if (header === undefined) return null;
  const value = header.trim();
  let ms: number;
  if (/^[0-9]+$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    // HTTP-dates always name the weekday or use the GMT zone; Date.parse alone accepts far looser text.
    if (!/GMT$|^[A-Z][a-z]{2},? /.test(value)) return null;
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    ms = Math.max(0, at - now.getTime());
  }
  return Math.min(ms, capMs);
}
