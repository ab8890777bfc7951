import type { HostedSession } from './hosted-session.ts';
import { moneyArrived } from './page-states.ts';

/**
 * What the tracking page of a payment link says about its state: `key`, whose title and message are
 * `track.<key>.title` and `track.<key>.message` in locales/*.json.
 */
export interface TrackingStatus {
  readonly key: 'waiting' | 'processing' | 'paid' | 'held' | 'failed' | 'expired' | 'canceled' | 'unavailable';
  /** Still payable: the page links to the checkout page (the tracking page itself takes no action). */
  readonly payable: boolean;
}

export function trackingStatus(session: Pick<HostedSession, 'status' | 'canceled' | 'unavailable'>): TrackingStatus {
  // As the checkout page: money that reached a canceled link shows where it stands (page-states.ts).
  if (session.canceled && !moneyArrived(session.status)) return { key: 'canceled', payable: false };
  if (session.unavailable) return { key: 'unavailable', payable: false };
  switch (session.status) {
    case 'open':
      return { key: 'waiting', payable: true };
    case 'pending':
      return { key: 'processing', payable: true };
    case 'paid':
    case 'held':
    case 'failed':
    case 'expired':
      return { key: session.status, payable: false };
  }
}
