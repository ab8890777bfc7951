import express, { type Express, type Response } from 'express';
import { verifyWebhook, WebhookVerificationError, type HostedCheckout, type WebhookEvent } from '@hosted-checkout/sdk';

import { ShopStore, type HandledEvent, type Order } from './store.ts';

export type { HandledEvent, Order } from './store.ts';

/*
 * A small shop on the SDK, as a merchant would write one: an order makes a checkout session and sends
 * the buyer to its `url`; fulfilment happens only from a verified `payment.paid` webhook (never from
 * the buyer's redirect), once per order, whatever the number of deliveries. Orders and the ids of the
 * events handled are kept in a file (store.ts), so a restart neither reuses an order id (and with it
 * an Idempotency-Key, which would send a new buyer to an old, paid session) nor handles an event twice.
 */

export interface ShopOptions {
  readonly client: HostedCheckout;
  /** The `whsec_` secret of the endpoint (or of `hosted-checkout listen`). */
  readonly webhookSecret: string;
  /** Where buyers reach this shop (for success_url and cancel_url). */
  readonly shopUrl: string;
  /** The JSON file of orders and handled events (made if missing). */
  readonly dataFile: string;
}

export interface Shop {
  readonly app: Express;
  readonly orders: Map<string, Order>;
  /** Every event handled, in arrival order, duplicates excluded. */
  readonly events: HandledEvent[];
}

const PRODUCT = { item: 'Blue mug', amount: '19.90', currency: 'USD' } as const;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(res: Response, title: string, body: string): void {
  res
    .set('content-security-policy', "default-src 'none'; base-uri 'none'; frame-ancestors 'none'")
    .type('html')
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1>${body}</html>`,
    );
}

export function createShop(options: ShopOptions): Shop {
  const { client } = options;
  const store = new ShopStore(options.dataFile);
  const { orders, events } = store;
  const app = express();
  app.disable('x-powered-by');

  app.get('/', (_req, res) => {
    page(
      res,
      'Blue Mug Shop',
      `<form method="post" action="/orders"><button>Buy the ${PRODUCT.item} for $${PRODUCT.amount}</button></form>`,
    );
  });

  app.post('/orders', async (_req, res) => {
    const order = store.newOrder(PRODUCT.item, PRODUCT.amount);
    // Keyed by the kept order id: a retried create makes one session for this order, and no other
    // order, before or after a restart, ever has the same key.
    const session = await client.checkoutSessions.create(
      {
        amount: PRODUCT.amount,
        currency: PRODUCT.currency,
        description: PRODUCT.item,
        reference: order.id,
        success_url: `${options.shopUrl}/orders/${order.id}`,
        cancel_url: `${options.shopUrl}/`,
      },
      { idempotencyKey: store.idempotencyKey(order) },
    );
    order.paymentId = session.id;
    store.save();
    res.redirect(303, session.url);
  });

  app.get('/orders/:id', (req, res) => {
    const order = orders.get(req.params.id);
    if (!order) return void res.status(404).type('text').send('No such order.');
    const said = order.status === 'paid' ? 'Paid: your mug is on its way.' : 'We are waiting for your payment to be confirmed.';
    page(res, `Order ${order.id}`, `<p>${escapeHtml(said)}</p>`);
  });

  app.get('/orders.json', (_req, res) => {
    res.json({ orders: [...orders.values()], events });
  });

  // The raw body, never express.json(): the signature is over the bytes as sent.
  app.post('/webhooks', express.raw({ type: 'application/json', limit: '256kb' }), async (req, res) => {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(req.body as Buffer, req.headers, options.webhookSecret);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return void res.status(400).json({ error: error.code });
      throw error;
    }
    // At-least-once delivery: an event already handled (before a restart too) is acknowledged and
    // changes nothing. Claimed at once, so a redelivery racing this one waits for nothing and acts not.
    if (!store.claim(event.id)) return void res.status(200).json({ duplicate: true });
    const paymentId = event.data.payment?.id ?? null;
    const order = paymentId === null ? undefined : store.orderOfPayment(paymentId);
    try {
      if (order && paymentId !== null) await applyEvent(client, order, event.type, paymentId);
    } catch (error) {
      // Not handled: a non-2xx answer makes the platform deliver it again.
      store.release(event.id);
      throw error;
    }
    store.handledEvent({ id: event.id, type: event.type, paymentId });
    res.status(200).json({ received: true });
  });

  return { app, orders, events };
}

/** Fulfil once, and only when the API itself reads the payment `paid`; a later event never undoes it. */
async function applyEvent(client: HostedCheckout, order: Order, type: string, paymentId: string): Promise<void> {
  if (type === 'payment.expired' && order.status === 'awaiting_payment') order.status = 'expired';
  if (type !== 'payment.paid' || order.status === 'paid') return;
  const payment = await client.payments.retrieve(paymentId);
  if (payment.status !== 'paid') return;
  order.status = 'paid';
  order.fulfilments += 1;
}
