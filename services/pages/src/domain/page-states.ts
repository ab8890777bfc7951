import type { HostedSession } from './hosted-session.ts';

/**
 * What the buyer sees for each state of a payment: one table, one answer (GOV.UK Pay's state
 * enforcer). Every page action names the states it accepts; in any other state the buyer is sent to
 * the page, which shows that state's own view.
 */
export const PAGE_STATES = ['details', 'choose', 'waiting', 'paid', 'held', 'failed', 'expired', 'canceled', 'unavailable'] as const;
export type PageState = (typeof PAGE_STATES)[number];

export interface StateView {
  /** Template under views/. */
  readonly template: string;
  /** The page title and heading, in words a buyer understands: its key in locales/*.json. */
  readonly titleKey: `state.${PageState}.title`;
  /** The page follows the payment live (status script). */
  readonly live: boolean;
  /** Test-mode outcome buttons are offered (the payment is started and unpaid). */
  readonly simulate: boolean;
}

export const STATE_VIEWS: Readonly<Record<PageState, StateView>> = {
  details: { template: 'details.njk', titleKey: 'state.details.title', live: false, simulate: false },
  choose: { template: 'choose.njk', titleKey: 'state.choose.title', live: true, simulate: true },
  waiting: { template: 'waiting.njk', titleKey: 'state.waiting.title', live: true, simulate: true },
  paid: { template: 'paid.njk', titleKey: 'state.paid.title', live: false, simulate: false },
  held: { template: 'held.njk', titleKey: 'state.held.title', live: false, simulate: false },
  failed: { template: 'failed.njk', titleKey: 'state.failed.title', live: false, simulate: false },
  expired: { template: 'expired.njk', titleKey: 'state.expired.title', live: false, simulate: false },
  canceled: { template: 'canceled.njk', titleKey: 'state.canceled.title', live: false, simulate: false },
  // The shop cannot take payments now (suspended, or Live without a wallet): nothing to do here. Live,
  // so a payment already on its way, or the shop taking payments again, changes the page by itself.
  unavailable: { template: 'unavailable.njk', titleKey: 'state.unavailable.title', live: true, simulate: false },
};

/** Money reached the payment: held for review, or paid (a held one the merchant accepted). */
export function moneyArrived(status: HostedSession['status']): boolean {
  return status === 'held' || status === 'paid';
}

export function pageState(session: Pick<HostedSession, 'status' | 'started' | 'canceled' | 'unavailable'>): PageState {
  // A canceled link says so, unless money reached it anyway: then the buyer sees where that money
  // stands (held for the merchant's review, docs/adr/0080), never "do not pay".
  if (session.canceled && !moneyArrived(session.status)) return 'canceled';
  // Checkout says so only while the payment is unpaid; every action is refused there too.
  if (session.unavailable) return 'unavailable';
  switch (session.status) {
    case 'open':
      return session.started ? 'choose' : 'details';
    case 'pending':
      return 'waiting';
    case 'paid':
    case 'held':
    case 'failed':
    case 'expired':
      return session.status;
  }
}

/** The states in which each page action may run. */
export const ACTION_STATES = {
  start: ['details', 'choose'],
  provider: ['choose', 'waiting'],
  simulate: ['choose', 'waiting'],
} as const satisfies Record<string, readonly PageState[]>;

export type PageAction = keyof typeof ACTION_STATES;

export function accepts(action: PageAction, state: PageState): boolean {
  return (ACTION_STATES[action] as readonly PageState[]).includes(state);
}
