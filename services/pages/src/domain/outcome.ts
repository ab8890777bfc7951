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

/** Why a start was refused, in the buyer's words, and whether trying again can help. */
export interface StartProblem {
  readonly message: string;
  /** The form field at fault, for the error summary link and aria-invalid. */
  readonly field: 'email' | 'country' | null;
  /** Worth a retry button (the network, not the buyer's input). */
  readonly retry: boolean;
}

/** Start errors the page explains; `expired`, `canceled` and finished states show their own view. */
export function startProblem(code: string): StartProblem {
  switch (code) {
    case 'invalid_email':
      return { message: 'Enter an email address in the correct format, like name@example.com.', field: 'email', retry: false };
    case 'invalid_country':
      return { message: 'Choose the country you are paying from.', field: 'country', retry: false };
    case 'no_providers':
      return {
        message: 'No payment provider can take this payment from the country you chose. Choose another country, or contact the shop.',
        field: 'country',
        retry: false,
      };
    case 'network_unavailable':
    case 'service_unavailable':
      return { message: 'We could not reach the payment network. Nothing was charged. Please try again.', field: null, retry: true };
    case 'unavailable':
      return {
        message: 'This shop cannot take payments right now. Nothing was charged. Please contact the shop.',
        field: null,
        retry: false,
      };
    case 'rate_limited':
      return { message: 'Too many attempts from your connection. Wait a minute, then try again.', field: null, retry: true };
    default:
      return { message: 'Something went wrong on our side. Nothing was charged. Please try again.', field: null, retry: true };
  }
}
