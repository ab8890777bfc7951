import type { HostedSession } from './hosted-session.ts';
import { moneyArrived } from './page-states.ts';

/** What the tracking page of a payment link says about its state, in the buyer's words. */
export interface TrackingStatus {
  readonly key: 'waiting' | 'processing' | 'paid' | 'held' | 'failed' | 'expired' | 'canceled' | 'unavailable';
  readonly title: string;
  readonly message: string;
  /** Still payable: the page links to the checkout page (the tracking page itself takes no action). */
  readonly payable: boolean;
}

export function trackingStatus(session: Pick<HostedSession, 'status' | 'canceled' | 'unavailable'>): TrackingStatus {
  // As the checkout page: money that reached a canceled link shows where it stands (page-states.ts).
  if (session.canceled && !moneyArrived(session.status)) {
    return {
      key: 'canceled',
      title: 'Payment canceled',
      message: 'The merchant canceled this payment request. Do not pay for it.',
      payable: false,
    };
  }
  if (session.unavailable) {
    return {
      key: 'unavailable',
      title: 'This shop cannot take payments right now',
      message: 'Do not pay for this request now; contact the merchant. A payment already made still arrives.',
      payable: false,
    };
  }
  switch (session.status) {
    case 'open':
      return { key: 'waiting', title: 'Waiting for payment', message: 'This payment has not been made yet.', payable: true };
    case 'pending':
      return {
        key: 'processing',
        title: 'Payment in progress',
        message: 'A payment was begun with a provider; this page updates when the money arrives.',
        payable: true,
      };
    case 'paid':
      return { key: 'paid', title: 'Paid', message: 'The payment arrived. Thank you.', payable: false };
    case 'held':
      return { key: 'held', title: 'Payment under review', message: 'The money arrived but needs the merchant’s review.', payable: false };
    case 'failed':
      return { key: 'failed', title: 'Payment failed', message: 'The payment did not go through.', payable: false };
    case 'expired':
      return { key: 'expired', title: 'Payment expired', message: 'The time to pay has run out.', payable: false };
  }
}
