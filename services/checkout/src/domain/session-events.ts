import type { JsonObject } from '@bufbuild/protobuf';
import { checkoutEventSubject, eventPayload, SESSION_CREATED, SESSION_STARTED } from '@hc/events/contracts';
import type { CheckoutSession } from './checkout-session.ts';
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
    status: CheckoutSession['status'];
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

export function sessionCreatedEvent(session: CheckoutSession, customer: OrderCustomerDetails): SessionCreatedEvent {
  return {
    id: `${session.id}.session.created`,
    type: 'session.created',
    occurredAt: session.createdAt.getTime(),
    accountId: session.accountId,
    livemode: session.livemode,
    session: {
      id: session.id,
      amount: session.amount,
      currency: session.currency,
      status: session.status,
      createdAt: session.createdAt.getTime(),
      customerEmail: session.customerEmail,
    },
    customer,
  };
}

/** Published with a start that set the email; `session` is the payment after the change. */
export function sessionStartedEvent(session: CheckoutSession, now: Date): SessionStartedEvent {
  if (session.customerEmail === null) throw new Error(`session ${session.id} started without an email`);
  return {
    id: `${session.id}.session.started.${session.customerRevision}`,
    type: 'session.started',
    occurredAt: now.getTime(),
    accountId: session.accountId,
    livemode: session.livemode,
    sessionId: session.id,
    customerEmail: session.customerEmail,
    revision: session.customerRevision,
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
