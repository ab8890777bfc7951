/**
 * The payment events a checkout test stack published, as a durable consumer of the test's own
 * receives them (after the outbox relay: so they arrive a moment after the call that caused them).
 * Used by the tests that check which events a payment's changes publish.
 */
import { connectNats, consumeDurable } from '@hc/events';
import type { Logger } from '@hc/logging';
import type { PaymentEvent } from '../../src/domain/payment-events.ts';
import type { CheckoutStack } from './checkout-stack.ts';

export interface PaymentEventLog {
  /** This payment's events received so far, in the order they arrived. */
  of(paymentId: string): PaymentEvent[];
  /** This payment's event types received so far. */
  typesOf(paymentId: string): string[];
  /** This payment's events once `done` holds for them, or whatever arrived within `timeoutMs`. */
  until(paymentId: string, done: (events: PaymentEvent[]) => boolean, timeoutMs?: number): Promise<PaymentEvent[]>;
  /** This payment's events once at least `count` arrived (or within `timeoutMs`). */
  atLeast(paymentId: string, count: number, timeoutMs?: number): Promise<PaymentEvent[]>;
  stop(): Promise<void>;
}

/** Starts a durable consumer named `name` on the stack's payment events. */
export async function logPaymentEvents(stack: CheckoutStack, name: string, logger: Logger): Promise<PaymentEventLog> {
  const received: PaymentEvent[] = [];
  const nats = await connectNats(stack.natsUrl, `${name}-test`);
  const consumer = await consumeDurable({
    nats,
    stream: stack.stream.name,
    durable: `${name.replaceAll('-', '_')}_test`,
    filterSubject: stack.paymentEvents,
    logger,
    handle: async (message) => {
      received.push(message.data as PaymentEvent);
    },
  });
  const of = (paymentId: string) => received.filter((event) => event.payment.id === paymentId);
  const until = async (paymentId: string, done: (events: PaymentEvent[]) => boolean, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const events = of(paymentId);
      if (done(events) || Date.now() > deadline) return events;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return {
    of,
    typesOf: (paymentId) => of(paymentId).map((event) => event.type),
    until,
    atLeast: (paymentId, count, timeoutMs) => until(paymentId, (events) => events.length >= count, timeoutMs),
    async stop() {
      await consumer.stop();
      await nats.drain();
    },
  };
}
