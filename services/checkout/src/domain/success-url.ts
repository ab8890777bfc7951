/**
 * The webhook payment shape's `successUrl` (spec, "Webhook payment shape"): the URL as the merchant
 * set it, with `{PAYMENT_ID}` and `{REFERENCE}` left in, percent-encoded where they stand in the path
 * (`%7BPAYMENT_ID%7D`), as a URL parser would write them there; in the query and the fragment they stay
 * literal (braces are not encoded there). Nothing else of the URL is rewritten: not the host's case,
 * not other characters, not an already encoded placeholder.
 */
const PLACEHOLDERS: readonly [string, string][] = [
  ['{PAYMENT_ID}', '%7BPAYMENT_ID%7D'],
  ['{REFERENCE}', '%7BREFERENCE%7D'],
];

export function webhookSuccessUrl(raw: string | null): string | null {
  if (raw === null) return null;
  const scheme = raw.indexOf('://');
  if (scheme < 0) return raw;
  // The path runs from the end of the authority (a `/`, or `\` which http(s) parsers read as one)
  // to the first `?` or `#`; a `?` or `#` before any slash means the URL has no path.
  const rest = raw.slice(scheme + 3);
  const authorityEnd = rest.search(/[/\\?#]/);
  if (authorityEnd < 0 || rest[authorityEnd] === '?' || rest[authorityEnd] === '#') return raw;
  const pathStart = scheme + 3 + authorityEnd;
  const tail = raw.slice(pathStart).search(/[?#]/);
  const pathEnd = tail < 0 ? raw.length : pathStart + tail;
  let path = raw.slice(pathStart, pathEnd);
  for (const [placeholder, encoded] of PLACEHOLDERS) path = path.split(placeholder).join(encoded);
  return raw.slice(0, pathStart) + path + raw.slice(pathEnd);
}
