/**
 * The platform's one rule for an email address it accepts (issue 47 item 7): a buyer's
 * `customer_email`, a dashboard user or invitation, an alert address, any mail's recipient. Every
 * service checks with this function, so an address one of them takes is never refused or read
 * differently by another.
 *
 * Deliberately plain, as a shop's form would be, and safe to put in a mail header:
 * - one `@`; a local part of at most 64 characters with none of `@ < > ( ) [ ] \ , ; : "`, no space,
 *   control or line-break character, and no dot at its start or end or two in a row;
 * - a domain of host names: dot-separated labels of letters (any script), digits and inner hyphens,
 *   at least two labels, the last not all digits. So no domain literal (`a@[127.0.0.1]`), no bare IP
 *   address (`a@127.0.0.1`), no angle bracket or stray `>`, no display name, no comment;
 * - at most 254 characters in all.
 * Lowercased and trimmed of surrounding white space. Undefined when it is not such an address.
 * Deliverability is the mailbox's matter, not checked here.
 */
export function normalEmailAddress(raw: string): string | undefined {
  const address = raw.trim().toLowerCase();
  if ([...address].length > EMAIL_ADDRESS_MAX_LENGTH) return undefined;
  const at = address.lastIndexOf('@');
  if (at < 1) return undefined;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if ([...local].length > 64 || !LOCAL_PART.test(local) || /^\.|\.$|\.\./.test(local)) return undefined;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return undefined;
  return /^\d+$/.test(labels.at(-1)!) ? undefined : address;
}

/** The longest address accepted (RFC 5321's path limit less its angle brackets). */
export const EMAIL_ADDRESS_MAX_LENGTH = 254;

// Characters a local part may not hold: specials a header parser reads as syntax, white space, controls.
const LOCAL_PART = /^[^\s@<>()[\]\\,;:"\p{Cc}\p{Cf}\p{Z}]+$/u;
// A host name's label: letters and digits of any script, inner hyphens, at most 63 characters.
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;
