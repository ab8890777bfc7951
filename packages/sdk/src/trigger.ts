import type { HostedCheckout } from './client.ts';
import type { SimulateOutcome } from './types.ts';

/**
 * What `hosted-checkout trigger <event>` can make happen to a new Test payment, and the events it
 * sends, in order. Everything goes through the public API with the merchant's Test key: a checkout
 * session is created and started (`payment.started`), then simulated; a canceled link is a payment
 * link canceled before anyone paid (POST /v1/payment_links/{id}/cancel).
 */
export const TRIGGERS = {
  'payment.started': { simulate: [], events: ['payment.started'] },
  'payment.paid': { simulate: ['paid'], events: ['payment.started', 'payment.paid'] },
  // Underpaid: the payment is held for the operator (spec: held, never paid).
  'payment.held': { simulate: ['underpaid'], events: ['payment.started', 'payment.held'] },
  'payment.failed': { simulate: ['failed'], events: ['payment.started', 'payment.failed'] },
  'payment.expired': { simulate: ['expired'], events: ['payment.started', 'payment.expired'] },
  // Paid after it expired: the shop must still fulfil it.
  'payment.late_paid': { simulate: ['expired', 'paid'], events: ['payment.started', 'payment.expired', 'payment.paid'] },
  'payment.canceled': { simulate: [], events: ['payment.canceled'] },
} as const satisfies Record<string, { simulate: readonly SimulateOutcome[]; events: readonly string[] }>;

export type TriggerName = keyof typeof TRIGGERS;

export function isTriggerName(name: string): name is TriggerName {
  return Object.hasOwn(TRIGGERS, name);
}

export interface Triggered {
  readonly trigger: TriggerName;
  /** The `pay_` id of the payment (or link) the events are about. */
  readonly paymentId: string;
  /** The event types it sends, in order. */
  readonly events: readonly string[];
}

/**
 * Drives one new Test payment to `trigger`. Each create carries the SDK's automatic Idempotency-Key;
 * the amounts are small and fixed, the reference says where the payment came from.
 */
export async function trigger(client: HostedCheckout, name: TriggerName): Promise<Triggered> {
  const plan = TRIGGERS[name];
  const description = `hosted-checkout trigger ${name}`;
  if (name === 'payment.canceled') {
    const link = await client.paymentLinks.create({ amount: '10.00', currency: 'USD', description });
    await client.paymentLinks.cancel(link.id);
    return { trigger: name, paymentId: link.id, events: plan.events };
  }
  const session = await client.checkoutSessions.create({
    amount: '10.00',
    currency: 'USD',
    description,
    reference: 'hosted-checkout-trigger',
  });
  await client.checkoutSessions.start(session.id, { customer_email: 'trigger@example.com' });
  for (const outcome of plan.simulate) await client.payments.simulate(session.id, outcome);
  return { trigger: name, paymentId: session.id, events: plan.events };
}
