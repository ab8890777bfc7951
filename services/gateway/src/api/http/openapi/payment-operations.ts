import { PAYMENT_EVENT_TYPES } from '@hc/events/contracts';
import { EXAMPLE_IDS } from '../presenters/schema-examples.ts';
import { createCheckoutSessionSchema } from '../validation/checkout-session-schemas.ts';
import { LISTEN_MAX_WAIT_SECONDS } from '../validation/listen-query.ts';
import { simulatePaymentSchema, startCheckoutSessionSchema } from '../validation/payment-schemas.ts';
import { BODY, IDEMPOTENT, idempotencyKeyHeader, LIST, PAGING, query, type Operation } from './operation-parts.ts';
import { toOpenApiSchema } from './request-schemas.ts';

type Method = 'get' | 'post' | 'delete';

/** The webhook event types: the payment event types of the event contracts (docs/adr/0022) plus ping. */
export const WEBHOOK_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, 'ping'] as const;

/** Checkout sessions, payments, customers, orders and events (the integration's are in integration-operations.ts). */
export const PAYMENT_OPERATIONS: Record<string, Partial<Record<Method, Operation>>> = {
  '/v1/checkout_sessions': {
    post: {
      id: 'createCheckoutSession',
      description:
        "Creates the payment a buyer pays on the hosted page: redirect the buyer to its `url`. The amount is a decimal string in the currency's units; `reference` and `metadata` come back on the payment and in every webhook event, so fulfilment can find the order. Send an `Idempotency-Key` so a retry after a timeout cannot charge twice.",
      example: {
        amount: '19.90',
        currency: 'USD',
        description: 'Blue mug',
        customer_email: 'ann@example.com',
        reference: 'ORD-1001',
        metadata: { cart: 'c_77' },
        success_url: 'https://shop.example.com/thanks',
      },
      summary: 'Create a checkout session',
      ok: [
        { status: 201, schema: 'CheckoutSession', description: 'Created (or created by this Idempotency-Key’s first request).' },
        { status: 200, schema: 'CheckoutSession', description: 'A retry with the same Idempotency-Key: the session as it is now.' },
      ],
      body: toOpenApiSchema(createCheckoutSessionSchema),
      parameters: [idempotencyKeyHeader('session')],
      errors: [
        ...BODY,
        'invalid_amount',
        'invalid_currency',
        'invalid_description',
        'invalid_reference',
        'invalid_metadata',
        'invalid_url',
        'invalid_customer',
        'invalid_email',
        'invalid_locale',
        ...IDEMPOTENT,
        'no_payout_wallet',
      ],
    },
    get: undefined,
  },
  '/v1/checkout_sessions/{id}': {
    get: {
      id: 'getCheckoutSession',
      description:
        'Reads a session as it is now. The session and its payment share one `pay_` id; read the payment for the settlement once it is paid.',
      summary: 'Read a checkout session',
      ok: [{ status: 200, schema: 'CheckoutSession', description: 'The session.' }],
      errors: [],
    },
    post: undefined,
  },
  '/v1/checkout_sessions/{id}/start': {
    post: {
      id: 'startCheckoutSession',
      description:
        'What the hosted page does when the buyer has given an email: fixes the email and country and answers the ways to pay. Call it yourself only to test without a browser.',
      example: { customer_email: 'ann@example.com', country: 'DE' },
      summary: 'Start a checkout session (the buyer gave an email)',
      ok: [{ status: 200, schema: 'StartedCheckoutSession', description: 'The started session and the ways to pay.' }],
      body: toOpenApiSchema(startCheckoutSessionSchema),
      errors: [
        ...BODY,
        'invalid_email',
        'invalid_country',
        'no_providers',
        'already_paid',
        'held',
        'failed',
        'unavailable',
        'expired',
        'canceled',
        // Live: the processor did not give a deposit address in time (nothing started; retry).
        'network_unavailable',
      ],
    },
    get: undefined,
  },
  '/v1/payments': {
    get: {
      id: 'listPayments',
      description:
        "Pages through the payments of the key's mode, newest first. Filters combine; follow `next_cursor` as `starting_after` while `has_more` is true.",
      summary: 'List payments, newest first (optionally filtered)',
      ok: [{ status: 200, schema: 'PaymentList', description: 'A page of payments.' }],
      parameters: [
        ...PAGING,
        query(
          'status',
          'Only payments in this status; anything else is invalid_request (field status).',
          {
            enum: ['open', 'pending', 'paid', 'held', 'failed', 'expired'],
          },
          'paid',
        ),
        query('created[gte]', 'Only payments created at or after this time, Unix seconds.', { type: 'integer', minimum: 0 }, 1795219200),
        query('created[lte]', 'Only payments created at or before this time, Unix seconds.', { type: 'integer', minimum: 0 }, 1795305600),
        query('customer_email', 'Only payments with this customer email (any letter case).', { type: 'string' }, 'ann@example.com'),
        query('reference', 'Only payments with exactly this reference.', { type: 'string' }, 'ORD-1001'),
        query(
          'source',
          'Only payments made this way: `api`, `checkout` or `payment_link`.',
          {
            enum: ['api', 'checkout', 'payment_link'],
          },
          'checkout',
        ),
      ],
      errors: [...LIST, 'invalid_email', 'invalid_reference'],
    },
    post: undefined,
  },
  '/v1/payments/{id}': {
    get: {
      id: 'getPayment',
      description:
        'Reads a payment with its status and, once paid, its settlement (what arrived and what was forwarded to the payout wallet).',
      summary: 'Read a payment',
      ok: [{ status: 200, schema: 'Payment', description: 'The payment.' }],
      errors: [],
    },
    post: undefined,
  },
  '/v1/payments/{id}/simulate': {
    post: {
      id: 'simulatePayment',
      description:
        'Test mode only: ends a started Test payment as if the processor had reported it, and sends the webhook events a Live payment would. A Live payment is `live_payment`.',
      example: { outcome: 'paid' },
      summary: 'Decide how a started Test payment ends (`paid`, `underpaid`, `failed`), or expire an unpaid one now (`expired`)',
      ok: [{ status: 200, schema: 'Payment', description: 'The payment after the simulated outcome.' }],
      body: toOpenApiSchema(simulatePaymentSchema),
      errors: [
        ...BODY,
        'invalid_outcome',
        'live_payment',
        'not_started',
        'already_paid',
        'held',
        'failed',
        // A decline (`failed`) on an expired or canceled started payment: only a late delivery moves it.
        'already_expired',
        'expired',
        'canceled',
        'network_unavailable',
      ],
    },
    get: undefined,
  },
  '/v1/customers': {
    get: {
      id: 'listCustomers',
      description: "Pages through the customers of the key's mode, newest first: one per buyer email, made by their checkouts.",
      summary: 'List customers, newest first',
      ok: [{ status: 200, schema: 'CustomerList', description: 'A page of customers.' }],
      parameters: [...PAGING, query('email', 'Only the customer with this email (not erased).', { type: 'string' }, 'ann@example.com')],
      errors: [...LIST, 'invalid_email'],
    },
    post: undefined,
  },
  '/v1/customers/{id}': {
    get: {
      id: 'getCustomer',
      description: 'Reads a customer with their addresses, store accounts and what they have spent per currency.',
      summary: 'Read a customer',
      ok: [{ status: 200, schema: 'Customer', description: 'The customer.' }],
      errors: [],
    },
    post: undefined,
  },
  '/v1/orders': {
    get: {
      id: 'listOrders',
      description:
        "Pages through the orders of the key's mode, newest first: one per checkout session, with who bought and where it ships.",
      summary: 'List orders, newest first',
      ok: [{ status: 200, schema: 'OrderList', description: 'A page of orders.' }],
      parameters: [...PAGING, query('customer_id', 'Only this customer’s orders.', { type: 'string' }, EXAMPLE_IDS.customer)],
      errors: LIST,
    },
    post: undefined,
  },
  '/v1/events': {
    get: {
      id: 'listEvents',
      description:
        'The webhook events of the last 30 days, newest first, exactly as they were delivered: use it to catch up after downtime, then deduplicate by event id.',
      summary: 'List the webhook events of the last 30 days, newest first',
      ok: [{ status: 200, schema: 'EventList', description: 'A page of events, each exactly as webhooks deliver it.' }],
      parameters: [
        ...PAGING,
        query('type', 'Only events of this type.', { enum: [...WEBHOOK_EVENT_TYPES] }, 'payment.paid'),
        query('created[gte]', 'Only events created at or after this time, Unix seconds.', { type: 'integer', minimum: 0 }, 1795219200),
        query('created[lt]', 'Only events created before this time, Unix seconds.', { type: 'integer', minimum: 0 }, 1795305600),
      ],
      errors: [...LIST, 'invalid_event_types'],
    },
    post: undefined,
  },
  '/v1/events/{id}': {
    get: {
      id: 'getEvent',
      description: 'Reads one webhook event of the last 30 days, byte for byte the body that was delivered.',
      summary: 'Read a webhook event (30 days)',
      ok: [{ status: 200, schema: 'WebhookEvent', description: 'The event, byte for byte the delivered body.' }],
      errors: [],
    },
    post: undefined,
  },
  '/v1/listen': {
    get: {
      id: 'listen',
      description:
        "A long poll: answers as soon as Test events exist after `after`, or an empty page when `wait` passes. `hosted-checkout listen` and the SDK's `listen` use it to forward Test events to localhost. Live keys are `test_mode_only`.",
      summary: 'Wait for the account’s next Test events (a long poll for `hosted-checkout listen`; Test keys only)',
      ok: [{ status: 200, schema: 'ListenPage', description: 'New events, or none when `wait` passed first.' }],
      parameters: [
        query(
          'after',
          'The previous answer’s `next_cursor`; absent: from the newest event now; `start`: from the oldest kept.',
          {
            type: 'string',
          },
          EXAMPLE_IDS.event,
        ),
        query(
          'wait',
          `Seconds to wait for an event, 0 to ${LISTEN_MAX_WAIT_SECONDS} (default ${LISTEN_MAX_WAIT_SECONDS}).`,
          {
            type: 'integer',
            minimum: 0,
            maximum: LISTEN_MAX_WAIT_SECONDS,
            default: LISTEN_MAX_WAIT_SECONDS,
          },
          LISTEN_MAX_WAIT_SECONDS,
        ),
      ],
      errors: ['invalid_cursor', 'test_mode_only'],
    },
    post: undefined,
  },
  '/v1/orders/{id}': {
    get: {
      id: 'getOrder',
      description: 'Reads the order of a checkout session (same `pay_` id).',
      summary: 'Read an order',
      ok: [{ status: 200, schema: 'Order', description: 'The order.' }],
      errors: [],
    },
    post: undefined,
  },
};
