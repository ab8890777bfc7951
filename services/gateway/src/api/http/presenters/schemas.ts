/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every object the presenters beside this file
 * return. They are the response half of the OpenAPI document (openapi/document.ts), and the contract
 * test validates every end-to-end response against them: `additionalProperties: false` everywhere,
 * so a field a presenter adds without adding it here fails CI.
 */

export type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, 'null'], ...extra });
const closed = (description: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const unixSeconds = { type: 'integer', description: 'Unix seconds.' };
const decimalString = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'A decimal string, never a float.' };
const SESSION_STATUSES = ['open', 'pending', 'paid', 'held', 'failed', 'expired'];

const sessionFields = (object: string): Record<string, JsonSchema> => ({
  id: { type: 'string', pattern: '^pay_', description: '`pay_` id, shared by the session and its payment.' },
  object: { const: object },
  url: { type: 'string', description: 'The hosted checkout page.' },
  status: { enum: SESSION_STATUSES },
  livemode: { type: 'boolean' },
  amount: decimalString,
  currency: { type: 'string' },
  description: { type: 'string' },
  reference: nullable('string'),
  customer_email: nullable('string'),
  created: unixSeconds,
  expires_at: unixSeconds,
  started_at: nullable('integer'),
  metadata: nullable('object', { additionalProperties: { type: 'string' } }),
  locale: nullable('string', {
    description:
      'The language of the buyer’s pages and receipt, as sent on create (`en`, `de`, `fr`, `es`, `it`, `nl`, `pt-BR`, `pl`, `ja`, `ar`); null: the buyer’s browser decides. The buyer’s own pick on the page wins over it.',
  }),
});

/** The payment object's fields (also a payment link's, which is a payment). */
const paymentFields = (object: string): Record<string, JsonSchema> => ({
  ...sessionFields(object),
  paid_at: nullable('integer'),
  provider: nullable('string'),
  hold_reason: nullable('string'),
  hold_acceptable: { type: 'boolean' },
  canceled_at: nullable('integer'),
  settlement: closed('What arrived and what was forwarded; null until reported, never estimated.', {
    coin: nullable('string'),
    value_coin: nullable('string'),
    merchant_received: nullable('string'),
    txid_in: nullable('string'),
    txid_out: nullable('string'),
    payout_wallet: nullable('string'),
  }),
});

const address = closed(
  'A postal address: all seven keys, null where unknown.',
  Object.fromEntries(['name', 'line1', 'line2', 'city', 'region', 'postal_code', 'country'].map((key) => [key, nullable('string')])),
);

const storeAccount = closed('The buyer’s account in the merchant’s store.', {
  platform: { type: 'string' },
  store_id: { type: 'string' },
  store_name: nullable('string'),
  customer_id: nullable('string'),
});

const provider = closed('A way to pay offered to the buyer.', {
  id: { type: 'string' },
  name: { type: 'string' },
  note: { type: 'string' },
  recommended: { type: 'boolean' },
  handoff_url: { type: 'string' },
});

const list = (item: string, order = 'newest first'): JsonSchema =>
  closed(`A page of ${item} objects, ${order}.`, {
    data: { type: 'array', items: ref(item) },
    has_more: { type: 'boolean' },
    next_cursor: { type: ['string', 'null'], description: 'The `starting_after` of the next page; null on the last page.' },
  });

/** The webhook payment shape (`data.payment`): camelCase, milliseconds, any subset of these fields. */
const webhookPayment: JsonSchema = {
  type: 'object',
  description: 'Snapshot of the payment at that moment. Events other than payment.paid may carry only some fields.',
  required: ['id'],
  properties: {
    id: { type: 'string' },
    mode: { enum: ['live', 'test'] },
    source: { type: 'string' },
    checkoutId: nullable('string'),
    planLabel: nullable('string'),
    description: { type: 'string' },
    reference: nullable('string'),
    customerEmail: nullable('string'),
    amount: { type: 'string' },
    currency: { type: 'string' },
    status: { enum: SESSION_STATUSES },
    provider: nullable('string'),
    providerName: nullable('string'),
    depositAddress: nullable('string'),
    payoutWallet: nullable('string'),
    feeBps: { type: 'integer' },
    valueCoin: nullable('string'),
    merchantReceived: nullable('string'),
    coin: nullable('string'),
    holdReason: nullable('string'),
    holdAcceptable: { type: 'boolean' },
    txidIn: nullable('string'),
    txidOut: nullable('string'),
    metadata: nullable('object', { additionalProperties: { type: 'string' } }),
    customerName: nullable('string'),
    memo: nullable('string'),
    trackingUrl: nullable('string'),
    canceledAt: nullable('integer'),
    successUrl: nullable('string'),
    createdAt: { type: 'integer' },
    paidAt: nullable('integer'),
    expiresAt: { type: 'integer' },
    url: { type: 'string' },
  },
  // Within v1 new fields may be added to webhook payloads: receivers must ignore unknown ones.
  additionalProperties: true,
};

/** Every named schema of the document's `components.schemas`, responses and webhooks alike. */
export function responseSchemas(errorCodes: readonly string[], eventTypes: readonly string[]): Record<string, JsonSchema> {
  return {
    CheckoutSession: closed('A checkout session.', sessionFields('checkout_session')),
    StartedCheckoutSession: closed('A started checkout session with the ways to pay.', {
      ...sessionFields('checkout_session'),
      country: nullable('string'),
      providers: { type: 'array', items: ref('Provider') },
    }),
    Provider: provider,
    Payment: closed('A payment: every session field plus the payment’s own.', paymentFields('payment')),
    PaymentList: list('Payment'),
    Address: address,
    StoreAccount: storeAccount,
    Customer: closed('A customer (read-only). The private dashboard note is never returned.', {
      id: { type: 'string', pattern: '^cus_' },
      object: { const: 'customer' },
      livemode: { type: 'boolean' },
      email: nullable('string'),
      name: nullable('string'),
      phone: nullable('string'),
      shipping_address: { oneOf: [ref('Address'), { type: 'null' }] },
      billing_address: { oneOf: [ref('Address'), { type: 'null' }] },
      store_accounts: { type: 'array', items: ref('StoreAccount') },
      orders_count: { type: 'integer', minimum: 0 },
      paid_orders_count: { type: 'integer', minimum: 0 },
      spent: { type: 'object', description: 'Paid amount per currency code.', additionalProperties: decimalString },
      created: unixSeconds,
      last_order_at: nullable('integer'),
      erased: { type: 'boolean' },
    }),
    CustomerList: list('Customer'),
    Order: closed('An order: one per checkout session, id = the session’s `pay_` id.', {
      id: { type: 'string', pattern: '^pay_' },
      object: { const: 'order' },
      livemode: { type: 'boolean' },
      customer_id: nullable('string'),
      status: { type: 'string' },
      amount: decimalString,
      currency: { type: 'string' },
      email: nullable('string'),
      name: nullable('string'),
      phone: nullable('string'),
      shipping_address: { oneOf: [ref('Address'), { type: 'null' }] },
      billing_address: { oneOf: [ref('Address'), { type: 'null' }] },
      store_account: { oneOf: [ref('StoreAccount'), { type: 'null' }] },
      created: unixSeconds,
      paid_at: nullable('integer'),
    }),
    OrderList: list('Order'),
    ErrorCode: {
      enum: [...errorCodes],
      description: 'The closed set of error codes (docs/api-errors.md); new ones may be added within v1.',
    },
    Error: closed('Every error response.', {
      error: {
        type: 'object',
        properties: { code: ref('ErrorCode'), message: { type: 'string' }, field: { type: 'string' } },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    }),
    EventList: list('WebhookEvent'),
    ...integrationSchemas(),
    ListenPage: closed('Test events recorded after the cursor, oldest first (GET /v1/listen).', {
      object: { const: 'list' },
      data: { type: 'array', items: ref('WebhookEvent') },
      has_more: { type: 'boolean', description: 'More events are already waiting: call again at once with `next_cursor`.' },
      next_cursor: { type: 'string', description: 'The `after` of the next call: the last event’s id, or the cursor sent.' },
    }),
    WebhookPayment: webhookPayment,
    WebhookEvent: closed('The body of every webhook delivery.', {
      id: { type: 'string', pattern: '^evt_' },
      type: { enum: [...eventTypes] },
      created: unixSeconds,
      livemode: { type: 'boolean' },
      data: closed('The event’s data.', { payment: { oneOf: [ref('WebhookPayment'), { type: 'null' }] } }),
    }),
  };
}

const webhookEndpointFields: Record<string, JsonSchema> = {
  id: { type: 'string', pattern: '^we_' },
  object: { const: 'webhook_endpoint' },
  url: { type: 'string' },
  description: nullable('string'),
  enabled_events: { type: 'array', items: { type: 'string' }, description: 'Event types, or ["*"] for every type.' },
  status: { enum: ['enabled', 'disabled'] },
  disabled_reason: { type: ['string', 'null'], enum: ['operator', 'gone', 'failing', null] },
  livemode: { type: 'boolean' },
  created: unixSeconds,
};

const CHECK_IDS = ['valid_signature', 'invalid_signature', 'stale_timestamp', 'replay', 'out_of_order', 'unknown_type'];

/** The endpoint checker's answer (presenters/webhook-check.ts, docs/adr/0087). */
const webhookEndpointCheck: JsonSchema = closed(
  'What the endpoint checker sent a Test endpoint and how it answered; nothing of it is stored or delivered as an event.',
  {
    object: { const: 'webhook_endpoint_check' },
    endpoint_id: { type: 'string', pattern: '^we_' },
    url: { type: 'string' },
    livemode: { const: false },
    created: { type: 'integer', description: 'Unix seconds.' },
    score: { type: 'string', pattern: '^[0-9]+/[0-9]+$', description: 'Checks passed out of all, e.g. "6/6".' },
    passed: { type: 'integer', minimum: 0 },
    total: { type: 'integer', minimum: 1 },
    timeout_ms: { type: 'integer', description: 'How long each answer could take: the delivery timeout (10 s at most).' },
    checks: {
      type: 'array',
      items: closed('One check.', {
        id: { enum: CHECK_IDS },
        title: { type: 'string' },
        passed: { type: 'boolean' },
        expected: { enum: ['2xx', '4xx'] },
        status_code: { type: ['integer', 'null'], description: 'The deciding answer’s HTTP status; null when none came.' },
        error: { type: ['string', 'null'], enum: ['timeout', 'connection_error', 'refused', null] },
        latency_ms: { type: 'integer', minimum: 0 },
        explanation: { type: 'string', description: 'Plain English: what was sent, what came back, what to change.' },
        guide: { type: 'string', description: 'The guide’s section for this check (docs/webhooks.md#check-…).' },
      }),
    },
  },
);

const secret = { type: 'string', pattern: '^whsec_', description: 'The signing secret: shown once, here.' };

/** Webhook endpoints and payment links of the secret-key API (issue 29, ADR 0045). */
function integrationSchemas(): Record<string, JsonSchema> {
  return {
    WebhookEndpoint: closed('A webhook endpoint of the key’s mode (its secret is never read back).', webhookEndpointFields),
    WebhookEndpointWithSecret: closed('A new webhook endpoint and its signing secret.', { ...webhookEndpointFields, secret }),
    RotatedWebhookEndpoint: closed('A webhook endpoint after a rotation, with the new secret.', {
      ...webhookEndpointFields,
      secret,
      previous_secret_expires_at: unixSeconds,
    }),
    // The store lists endpoints by creation, oldest first, every one on one page (routes/webhook-endpoints.ts).
    WebhookEndpointList: list('WebhookEndpoint', 'oldest first'),
    WebhookEndpointCheck: webhookEndpointCheck,
    DeletedWebhookEndpoint: closed('A deleted webhook endpoint.', {
      id: { type: 'string', pattern: '^we_' },
      object: { const: 'webhook_endpoint' },
      deleted: { const: true },
    }),
    PaymentLink: closed('A payment link: the payment it is (every payment field, same `pay_` id), who it is for and its tracking page.', {
      ...paymentFields('payment_link'),
      tracking_url: { type: 'string' },
      customer_name: nullable('string'),
      memo: nullable('string'),
    }),
    PaymentLinkList: list('PaymentLink'),
  };
}
