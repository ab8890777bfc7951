import { utcWords } from './payment-mails.ts';

/**
 * What stands in the stored bodies where the one-time link goes. The link is a secret (whoever holds
 * it sets the invited user's password), so the bodies never contain it: it is kept sealed beside them
 * and put in place only on the way to SMTP (docs/adr/0059).
 */
export const LINK_PLACEHOLDER = '[[one-time-link]]';

/** What the invitation template shows (the link as its placeholder). */
export interface InvitationView {
  readonly recipient: string;
  readonly role: string;
  readonly invitedBy: string;
  readonly link: string;
  /** "25 Nov 2026, 01:25 UTC". */
  readonly expires: string;
  /** Invitations are of the account, not of a mode: never marked Test. */
  readonly test: false;
}

export function invitationView(input: { recipient: string; role: string; invitedBy: string; expiresAt: Date }): InvitationView {
  const { recipient, role, invitedBy } = input;
  return { recipient, role, invitedBy, link: LINK_PLACEHOLDER, expires: utcWords(input.expiresAt.getTime()), test: false };
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The bodies with the link in place of its placeholder (escaped for the HTML body, as the template would). */
export function withLink(bodies: { text: string; html: string }, link: string): { text: string; html: string } {
  const escaped = link.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  return { text: bodies.text.replaceAll(LINK_PLACEHOLDER, link), html: bodies.html.replaceAll(LINK_PLACEHOLDER, escaped) };
}

/** The roles a dashboard invitation may name (the dashboard's own table, docs/dashboard-roles.md). */
export const INVITATION_ROLES: readonly string[] = ['owner', 'admin', 'developer', 'viewer'];
