import ipaddr from 'ipaddr.js';

/**
 * Which network addresses a webhook may be sent to (the SSRF guard). Only ordinary public unicast
 * addresses are allowed: an allow-list, so a range we did not think of is refused rather than let
 * through. ipaddr.js names the special ranges (loopback, RFC 1918, CGNAT, ULA, link-local, multicast,
 * NAT64, 6to4, Teredo, documentation, reserved…); an IPv4-mapped IPv6 address is judged as its IPv4.
 *
 * `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE_TARGETS, for local development and tests) also lets through
 * loopback, RFC 1918, CGNAT and ULA addresses — in both modes. Cloud metadata addresses, link-local,
 * unspecified, multicast and broadcast stay refused even then.
 */
export type TargetVerdict = { readonly allowed: true } | { readonly allowed: false; readonly range: string };

const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

/** Instance metadata services (AWS/GCP/Azure/OpenStack IPv4, AWS IPv6, Alibaba): never a webhook target. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

/**
 * IPv6's global unicast space (2000::/3, RFC 4291 §2.4): ipaddr.js calls every IPv6 address outside
 * its named ranges "unicast", including unassigned space and the deprecated IPv4-compatible form
 * ::a.b.c.d (::/96), which some stacks still route to the IPv4 address inside — so ::127.0.0.1 would
 * be loopback written another way. Only this space counts as an ordinary public IPv6 address.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The ipaddr.js range name of an IP address ("unicast" for an ordinary public one), or "invalid". */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'metadata';
  const range = parsed.range();
  if (range !== 'unicast' || parsed.kind() === 'ipv4') return range;
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.match(GLOBAL_UNICAST_V6)) return range;
  return ipv6.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'unassigned';
}

export function judgeTargetAddress(address: string, allowPrivate: boolean): TargetVerdict {
  const range = addressRange(address);
  if (range === 'unicast' || (allowPrivate && PRIVATE_RANGES.has(range))) return { allowed: true };
  return { allowed: false, range };
}
