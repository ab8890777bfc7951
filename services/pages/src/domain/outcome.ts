import type { HostedSession } from './hosted-session.ts';

/**
 * The merchant's success_url with {PAYMENT_ID} and {REFERENCE} filled in, percent-encoded (spec);
 * null without a success_url (the page shows a receipt instead). A missing reference fills as empty.
 */
export function successRedirect(session: Pick<HostedSession, 'id' | 'reference' | 'successUrl'>): string | null {
  if (session.successUrl === null) return null;
  // Braces may arrive percent-encoded (%7B…%7D, as URL tools write them in a path): both forms are filled.
  return session.successUrl
    .replace(/\{PAYMENT_ID\}|%7[Bb]PAYMENT_ID%7[Dd]/g, () => encodeURIComponent(session.id))
    .replace(/\{REFERENCE\}|%7[Bb]REFERENCE%7[Dd]/g, () => encodeURIComponent(session.reference ?? ''));
}

/** Why a start was refused (its words: `messageKey` in locales/*.json), and whether trying again can help. */
export interface StartProblem {
  readonly messageKey: string;
  /** The form field at fault, for the error summary link and aria-invalid. */
  readonly field: 'email' | 'country' | null;
  /** Worth a retry button (the network, not the buyer's input). */
  readonly retry: boolean;
}

/** Start errors the page explains; `expired`, `canceled` and finished states show their own view. */
export function startProblem(code: string): StartProblem {
  switch (code) {
    case 'invalid_email':
      return { messageKey: 'startProblem.invalid_email', field: 'email', retry: false };
    case 'invalid_country':
      return { messageKey: 'startProblem.invalid_country', field: 'country', retry: false };
    case 'no_providers':
      return { messageKey: 'startProblem.no_providers', field: 'country', retry: false };
    case 'network_unavailable':
    case 'service_unavailable':
      return { messageKey: 'startProblem.network', field: null, retry: true };
    case 'unavailable':
      return { messageKey: 'startProblem.unavailable', field: null, retry: false };
    case 'rate_limited':
      return { messageKey: 'startProblem.rate_limited', field: null, retry: true };
    default:
      return { messageKey: 'startProblem.other', field: null, retry: true };
  }
}
