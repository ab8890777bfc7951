/**
 * A merchant's alert address: one plain mailbox, at most 254 characters, no display name, no spaces
 * or line breaks (it goes into a header). Lowercased. Undefined when it is not one.
 */
export function normalEmailAddress(raw: string): string | undefined {
  const address = raw.trim().toLowerCase();
  if (address.length > 254) return undefined;
  return /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(address)
    ? address
    : undefined;
}
