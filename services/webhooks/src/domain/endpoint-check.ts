import type { WebhookPayment } from './webhook-payment.ts';

/**
 * The endpoint checker's deliveries and how their answers are graded (docs/webhooks.md#checking-an-endpoint,
 * docs/adr/0087). Pure: what is sent and what an answer means; sending is the use case's.
 */
export const CHECK_IDS = ['valid_signature', 'invalid_signature', 'stale_timestamp', 'replay', 'out_of_order', 'unknown_type'] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** Check events are marked three ways: this id prefix, `livemode: false`, and the CHECK_HEADER header. */
export const CHECK_EVENT_PREFIX = 'evt_check_';
export const CHECK_PAYMENT_PREFIX = 'pay_check_';
export const CHECK_HEADER = 'webhook-check';
/** Twice the 5 minutes receivers tolerate (Standard Webhooks): stale beyond doubt, whatever the clocks. */
export const STALE_BY_MS = 10 * 60_000;
/** A type no version has: endpoints must acknowledge types they do not know (new ones may come within v1). */
export const UNKNOWN_EVENT_TYPE = 'check.unknown_type';
/** The longest an answer may take: the delivery timeout, capped so a check ends within its callers' deadline. */
export const CHECK_TIMEOUT_CAP_MS = 10_000;

/** How a delivery is signed: as real ones, with a secret the endpoint does not have, or 10 minutes ago. */
export type Signing = 'valid' | 'wrong_secret' | 'stale';

export interface CheckEventBody {
  id: string;
  type: string;
  created: number;
  livemode: false;
  data: { payment: WebhookPayment };
}

export interface CheckDelivery {
  readonly check: CheckId;
  readonly signing: Signing;
  readonly body: CheckEventBody;
}

/** Random parts of one run's ids (ULID-like, from the caller), so the plan itself stays pure. */
export interface CheckIds {
  readonly events: readonly [string, string, string, string, string, string];
  readonly payments: readonly [string, string];
}

/**
 * Two rounds, each sent at once: the second holds what must follow something of the first (the
 * replay of the accepted event, the earlier event of a payment whose later one went first). At most
 * four deliveries are in flight, the per-endpoint concurrency of real deliveries.
 */
export function checkPlan(nowMs: number, ids: CheckIds): [CheckDelivery[], CheckDelivery[]] {
  const [valid, forged, stale, paid, started, unknown] = ids.events.map((id) => `${CHECK_EVENT_PREFIX}${id}`) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const [onePayment, orderedPayment] = ids.payments.map((id) => `${CHECK_PAYMENT_PREFIX}${id}`) as [string, string];
  const event = (id: string, type: string, paymentId: string, status: string, createdMs = nowMs): CheckEventBody => ({
    id,
    type,
    created: Math.floor(createdMs / 1000),
    livemode: false,
    data: { payment: checkPayment(paymentId, status, nowMs) },
  });
  const validEvent = event(valid, 'payment.started', onePayment, 'started');
  return [
    [
      { check: 'valid_signature', signing: 'valid', body: validEvent },
      { check: 'invalid_signature', signing: 'wrong_secret', body: event(forged, 'payment.paid', onePayment, 'paid') },
      { check: 'stale_timestamp', signing: 'stale', body: event(stale, 'payment.paid', onePayment, 'paid', nowMs - STALE_BY_MS) },
      { check: 'out_of_order', signing: 'valid', body: event(paid, 'payment.paid', orderedPayment, 'paid') },
    ],
    [
      { check: 'replay', signing: 'valid', body: validEvent },
      { check: 'out_of_order', signing: 'valid', body: event(started, 'payment.started', orderedPayment, 'started', nowMs - 60_000) },
      { check: 'unknown_type', signing: 'valid', body: event(unknown, UNKNOWN_EVENT_TYPE, onePayment, 'started') },
    ],
  ];
}

/** A Test payment of the spec's shape, every key present, naming a payment that does not exist. */
function checkPayment(id: string, status: string, nowMs: number): WebhookPayment {
  const paid = status === 'paid';
  return {
    id,
    mode: 'test',
    source: 'api',
    checkoutId: null,
    planLabel: null,
    description: 'Webhook endpoint check',
    reference: null,
    customerEmail: null,
    amount: '19.90',
    currency: 'USD',
    status,
    provider: null,
    providerName: null,
    depositAddress: null,
    payoutWallet: null,
    feeBps: 0,
    valueCoin: paid ? '19.90' : null,
    merchantReceived: null,
    coin: paid ? 'polygon_usdc' : null,
    holdReason: null,
    holdAcceptable: false,
    txidIn: null,
    txidOut: null,
    metadata: null,
    customerName: null,
    memo: null,
    trackingUrl: null,
    canceledAt: null,
    successUrl: null,
    createdAt: nowMs - 120_000,
    paidAt: paid ? nowMs : null,
    expiresAt: nowMs + 86_400_000,
    url: '',
  };
}
