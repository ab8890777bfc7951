import { API_ERRORS, type ErrorCode } from '@hc/errors';
import { PAYMENT_EVENT_TYPES } from '@hc/events/contracts';
import { responseSchemas, type JsonSchema } from '../presenters/schemas.ts';
import { createCheckoutSessionSchema } from '../validation/checkout-session-schemas.ts';
import { simulatePaymentSchema, startCheckoutSessionSchema } from '../validation/payment-schemas.ts';
import { LISTEN_MAX_WAIT_SECONDS } from '../validation/listen-query.ts';
import { INTEGRATION_OPERATIONS } from './integration-operations.ts';
import {
  BODY,
  COMMON,
  IDEMPOTENT,
  idempotencyKeyHeader,
  idParameter,
  LIST,
  PAGING,
  query,
  UNAVAILABLE,
  type Operation,
} from './operation-parts.ts';
import { toOpenApiSchema } from './request-schemas.ts';

/**
 * The OpenAPI 3.1 document of the public /v1 API, built from the schemas the gateway validates
 * requests with (validation/) and the response schemas beside the presenters, and the error codes
 * of @hc/errors. Served at GET /v1/openapi.json and committed as docs/openapi.json
 * (`pnpm openapi` rewrites it; a test fails when the copy is stale). ADR 0021.
 */

/** The webhook event types: the payment event types of the event contracts (docs/adr/0022) plus ping. */
export const WEBHOOK_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, 'ping'] as const;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

type Method = 'get' | 'post' | 'delete';

const OPERATIONS: Record<string, Partial<Record<Method, Operation>>> = {
  '/v1/checkout_sessions': {
    post: {
      id: 'createCheckoutSession',
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
        ...IDEMPOTENT,
        'no_payout_wallet',
      ],
    },
    get: undefined,
  },
  '/v1/checkout_sessions/{id}': {
    get: {
      id: 'getCheckoutSession',
      summary: 'Read a checkout session',
      ok: [{ status: 200, schema: 'CheckoutSession', description: 'The session.' }],
      errors: [],
    },
    post: undefined,
  },
  '/v1/checkout_sessions/{id}/start': {
    post: {
      id: 'startCheckoutSession',
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
      summary: 'List payments, newest first (optionally filtered)',
      ok: [{ status: 200, schema: 'PaymentList', description: 'A page of payments.' }],
      parameters: [
        ...PAGING,
        query('status', 'Only payments in this status; anything else is invalid_request (field status).', {
          enum: ['open', 'pending', 'paid', 'held', 'failed', 'expired'],
        }),
        query('created[gte]', 'Only payments created at or after this time, Unix seconds.', { type: 'integer', minimum: 0 }),
        query('created[lte]', 'Only payments created at or before this time, Unix seconds.', { type: 'integer', minimum: 0 }),
        query('customer_email', 'Only payments with this customer email (any letter case).', { type: 'string' }),
        query('reference', 'Only payments with exactly this reference.', { type: 'string' }),
        query('source', 'Only payments made this way: `api`, `checkout` or `payment_link`.', {
          enum: ['api', 'checkout', 'payment_link'],
        }),
      ],
      errors: [...LIST, 'invalid_email', 'invalid_reference'],
    },
    post: undefined,
  },
  '/v1/payments/{id}': {
    get: { id: 'getPayment', summary: 'Read a payment', ok: [{ status: 200, schema: 'Payment', description: 'The payment.' }], errors: [] },
    post: undefined,
  },
  '/v1/payments/{id}/simulate': {
    post: {
      id: 'simulatePayment',
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
      summary: 'List customers, newest first',
      ok: [{ status: 200, schema: 'CustomerList', description: 'A page of customers.' }],
      parameters: [...PAGING, query('email', 'Only the customer with this email (not erased).', { type: 'string' })],
      errors: [...LIST, 'invalid_email'],
    },
    post: undefined,
  },
  '/v1/customers/{id}': {
    get: {
      id: 'getCustomer',
      summary: 'Read a customer',
      ok: [{ status: 200, schema: 'Customer', description: 'The customer.' }],
      errors: [],
    },
    post: undefined,
  },
  '/v1/orders': {
    get: {
      id: 'listOrders',
      summary: 'List orders, newest first',
      ok: [{ status: 200, schema: 'OrderList', description: 'A page of orders.' }],
      parameters: [...PAGING, query('customer_id', 'Only this customer’s orders.', { type: 'string' })],
      errors: LIST,
    },
    post: undefined,
  },
  '/v1/events': {
    get: {
      id: 'listEvents',
      summary: 'List the webhook events of the last 30 days, newest first',
      ok: [{ status: 200, schema: 'EventList', description: 'A page of events, each exactly as webhooks deliver it.' }],
      parameters: [
        ...PAGING,
        query('type', 'Only events of this type.', { enum: [...WEBHOOK_EVENT_TYPES] }),
        query('created[gte]', 'Only events created at or after this time, Unix seconds.', { type: 'integer', minimum: 0 }),
        query('created[lt]', 'Only events created before this time, Unix seconds.', { type: 'integer', minimum: 0 }),
      ],
      errors: [...LIST, 'invalid_event_types'],
    },
    post: undefined,
  },
  '/v1/events/{id}': {
    get: {
      id: 'getEvent',
      summary: 'Read a webhook event (30 days)',
      ok: [{ status: 200, schema: 'WebhookEvent', description: 'The event, byte for byte the delivered body.' }],
      errors: [],
    },
    post: undefined,
  },
  '/v1/listen': {
    get: {
      id: 'listen',
      summary: 'Wait for the account’s next Test events (a long poll for `hosted-checkout listen`; Test keys only)',
      ok: [{ status: 200, schema: 'ListenPage', description: 'New events, or none when `wait` passed first.' }],
      parameters: [
        query('after', 'The previous answer’s `next_cursor`; absent: from the newest event now; `start`: from the oldest kept.', {
          type: 'string',
        }),
        query('wait', `Seconds to wait for an event, 0 to ${LISTEN_MAX_WAIT_SECONDS} (default ${LISTEN_MAX_WAIT_SECONDS}).`, {
          type: 'integer',
          minimum: 0,
          maximum: LISTEN_MAX_WAIT_SECONDS,
          default: LISTEN_MAX_WAIT_SECONDS,
        }),
      ],
      errors: ['invalid_cursor', 'test_mode_only'],
    },
    post: undefined,
  },
  '/v1/orders/{id}': {
    get: { id: 'getOrder', summary: 'Read an order', ok: [{ status: 200, schema: 'Order', description: 'The order.' }], errors: [] },
    post: undefined,
  },
  ...INTEGRATION_OPERATIONS,
};

/** Headers every response carries (response-headers.ts); the contract test checks them. */
const RESPONSE_HEADERS = {
  'Cache-Control': { description: 'Never cached.', required: true, schema: { const: 'no-store' } },
  'X-Request-Id': { description: 'Quote it to support.', required: true, schema: { type: 'string', pattern: '^req_' } },
};

function errorResponses(codes: readonly ErrorCode[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...COMMON, ...codes, ...UNAVAILABLE])) {
    const status = API_ERRORS[code].http;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, JsonSchema> = { ...RESPONSE_HEADERS };
    if (status === 429) headers['Retry-After'] = { description: 'Seconds to wait.', required: true, schema: { const: '60' } };
    responses[String(status)] = {
      description: statusCodes.map((code) => `\`${code}\`: ${API_ERRORS[code].message}`).join(' '),
      headers,
      content: {
        'application/json': {
          schema: {
            allOf: [ref('Error')],
            properties: { error: { properties: { code: { enum: statusCodes } } } },
          },
        },
      },
    };
  }
  return responses;
}

function operationObject(operation: Operation): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const ok of operation.ok) {
    responses[String(ok.status)] = {
      description: ok.description,
      headers: RESPONSE_HEADERS,
      content: { 'application/json': { schema: ref(ok.schema) } },
    };
  }
  return {
    operationId: operation.id,
    summary: operation.summary,
    ...(operation.parameters ? { parameters: operation.parameters } : {}),
    ...(operation.body
      ? { requestBody: { required: !operation.bodyOptional, content: { 'application/json': { schema: operation.body } } } }
      : {}),
    responses: { ...responses, ...errorResponses(operation.errors) },
  };
}

function paths(): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {
    '/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI document of the API, no key needed.',
            headers: RESPONSE_HEADERS,
            content: {
              'application/json': { schema: { type: 'object', properties: { openapi: { const: '3.1.0' } }, required: ['openapi'] } },
            },
          },
          ...errorResponses([]),
        },
      },
    },
  };
  for (const [path, methods] of Object.entries(OPERATIONS)) {
    const item: JsonSchema = {};
    const id = path.includes('{id}') ? [idParameter('The object’s id; another account’s or mode’s id is not_found.')] : [];
    if (id.length > 0) item['parameters'] = id;
    for (const method of ['get', 'post', 'delete'] as const) {
      const operation = methods[method];
      if (operation) item[method] = operationObject(operation);
    }
    result[path] = item;
  }
  return result;
}

export function openApiDocument(): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hosted Checkout and Payments API',
      version: 'v1',
      description:
        'Checkout sessions, payments, customers and orders (read-only), and the webhook events. Within v1 changes only add: ' +
        'new response fields, new optional request fields, new error codes, new webhook event types.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The host this document was fetched from.' }],
    security: [{ apiKey: [] }],
    paths: paths(),
    webhooks: {
      paymentEvent: {
        post: {
          operationId: 'receiveWebhookEvent',
          summary: 'A webhook delivery to a merchant endpoint (one event object per request).',
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else is retried.' } },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A Test (`sk_test_`) or Live (`sk_live_`) secret key.' },
      },
      schemas: responseSchemas(Object.keys(API_ERRORS), WEBHOOK_EVENT_TYPES),
    },
  };
}

/** The document as committed in docs/openapi.json and served: two-space JSON and a final newline. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
