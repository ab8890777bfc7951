import type { JsonObject } from '@bufbuild/protobuf';
import { checkoutEventSubject, eventPayload, SESSION_CREATED, SESSION_STARTED } from '@hc/events/contracts';
import type { Payment } from './payment.ts';
import type { OrderCustomerDetails } from './order-customer.ts';

/**
 * Internal events of the checkout stream that only other contexts read (the customers context builds
 * customers and orders from them). They are not webhook event types. Documented in docs/events.md.
 */
export interface SessionCreatedEvent {
  id: string;
  type: 'session.created';
  /** Unix milliseconds. */
  occurredAt: number;
  accountId: string;
  livemode: boolean;
  session: {
    id: string;
    amount: string;
    currency: string;
    status: Payment['status'];
    createdAt: number;
    customerEmail: string | null;
  };
  customer: OrderCustomerDetails;
}

export interface SessionStartedEvent {
  id: string;
  type: 'session.started';
  occurredAt: number;
  accountId: string;
  livemode: boolean;
  sessionId: string;
  customerEmail: string;
  /** Counts the session's email changes (1 at the first start): consumers ignore lower ones. */
  revision: number;
}

export type SessionEvent = SessionCreatedEvent | SessionStartedEvent;

export function sessionCreatedEvent(payment: Payment, customer: OrderCustomerDetails): SessionCreatedEvent {
  return {
    id: `${payment.id}.session.created`,
    type: 'session.created',
    occurredAt: payment.createdAt.getTime(),
    accountId: payment.accountId,
    livemode: payment.livemode,
    session: {
      id: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      status: payment.status,
      createdAt: payment.createdAt.getTime(),
      customerEmail: payment.customerEmail,
    },
    customer,
  };
}

/** Published with a start that set the email; `session` is the payment after the change. */
export function sessionStartedEvent(payment: Payment, now: Date): SessionStartedEvent {
  if (payment.customerEmail === null) throw new Error(`payment ${payment.id} started without an email`);
  return {
    id: `${payment.id}.session.started.${payment.customerRevision}`,
    type: 'session.started',
    occurredAt: now.getTime(),
    accountId: payment.accountId,
    livemode: payment.livemode,
    sessionId: payment.id,
    customerEmail: payment.customerEmail,
    revision: payment.customerRevision,
  };
}

/** `checkout.session.<type>.<payment id>`: the payment id ends the subject, as for payment events. */
export function sessionEventSubject(event: SessionEvent): string {
  const paymentId = event.type === 'session.created' ? event.session.id : event.sessionId;
  return checkoutEventSubject(event.type, paymentId);
}

/** The outbox payload: the hc.checkout.v1.SessionCreated or SessionStarted message, in the events' JSON (docs/adr/0022). */
export function sessionEventPayload(event: SessionEvent): JsonObject {
  return event.type === 'session.created' ? eventPayload(SESSION_CREATED, event) : eventPayload(SESSION_STARTED, event);
}
