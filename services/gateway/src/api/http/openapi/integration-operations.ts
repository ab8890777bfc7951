import { createPaymentLinkSchema, createWebhookEndpointSchema, updateWebhookEndpointSchema } from '../validation/integration-schemas.ts';
import { BODY, IDEMPOTENT, idempotencyKeyHeader, LIST, NO_FIELDS, PAGING, type Operation } from './operation-parts.ts';
import { toOpenApiSchema } from './request-schemas.ts';

type Method = 'get' | 'post' | 'delete';

/** Webhook endpoints and payment links with the secret key (issue 29, ADR 0045). */
export const INTEGRATION_OPERATIONS: Record<string, Partial<Record<Method, Operation>>> = {
  '/v1/webhook_endpoints': {
    post: {
      id: 'createWebhookEndpoint',
      summary: 'Register a webhook endpoint in the key’s mode (answers its signing secret, once)',
      ok: [
        { status: 201, schema: 'WebhookEndpointWithSecret', description: 'The endpoint and its `whsec_` secret, shown only here.' },
        {
          status: 200,
          schema: 'WebhookEndpointWithSecret',
          description:
            'A retry with the same Idempotency-Key and body: the endpoint as it is now and its current secret (the same one ' +
            'unless it was rotated since), answered again to this key only, within its 24 hours.',
        },
      ],
      body: toOpenApiSchema(createWebhookEndpointSchema),
      parameters: [idempotencyKeyHeader('endpoint')],
      errors: [...BODY, 'invalid_url', 'invalid_description', 'invalid_event_types', ...IDEMPOTENT],
    },
    get: {
      id: 'listWebhookEndpoints',
      summary: 'List the webhook endpoints of the key’s mode, oldest first (one page)',
      ok: [{ status: 200, schema: 'WebhookEndpointList', description: 'Every endpoint of this mode.' }],
      errors: [],
    },
  },
  // Before {id}: the OpenAPI fuzz runs operations in document order, and DELETE would take its ids.
  '/v1/webhook_endpoints/{id}/rotate_secret': {
    post: {
      id: 'rotateWebhookEndpointSecret',
      summary: 'Make a new signing secret (the previous one keeps signing until previous_secret_expires_at)',
      ok: [{ status: 200, schema: 'RotatedWebhookEndpoint', description: 'The endpoint and its new secret, shown only here.' }],
      body: NO_FIELDS,
      bodyOptional: true,
      errors: BODY,
    },
  },
  '/v1/webhook_endpoints/{id}': {
    get: {
      id: 'getWebhookEndpoint',
      summary: 'Read a webhook endpoint',
      ok: [{ status: 200, schema: 'WebhookEndpoint', description: 'The endpoint (never its secret).' }],
      errors: [],
    },
    post: {
      id: 'updateWebhookEndpoint',
      summary: 'Change a webhook endpoint: url, description (null clears), enabled_events, status enabled/disabled',
      ok: [{ status: 200, schema: 'WebhookEndpoint', description: 'The endpoint as changed.' }],
      body: toOpenApiSchema(updateWebhookEndpointSchema),
      errors: [...BODY, 'invalid_url', 'invalid_description', 'invalid_event_types'],
    },
    delete: {
      id: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint (its pending deliveries stop)',
      ok: [{ status: 200, schema: 'DeletedWebhookEndpoint', description: 'Deleted.' }],
      errors: [],
    },
  },
  '/v1/payment_links': {
    post: {
      id: 'createPaymentLink',
      summary: 'Create a payment link (a payment with its own lifetime, for one payer), as the dashboard does',
      ok: [
        { status: 201, schema: 'PaymentLink', description: 'The link; send its `url` to the payer.' },
        { status: 200, schema: 'PaymentLink', description: 'A retry with the same Idempotency-Key and body: the link as it is now.' },
      ],
      body: toOpenApiSchema(createPaymentLinkSchema),
      parameters: [idempotencyKeyHeader('link')],
      errors: [
        ...BODY,
        'invalid_amount',
        'invalid_currency',
        'invalid_description',
        'invalid_email',
        'invalid_reference',
        'invalid_metadata',
        'invalid_customer_name',
        'invalid_memo',
        'invalid_lifetime',
        ...IDEMPOTENT,
        'no_payout_wallet',
      ],
    },
    get: {
      id: 'listPaymentLinks',
      summary: 'List payment links, newest first',
      ok: [{ status: 200, schema: 'PaymentLinkList', description: 'A page of payment links.' }],
      parameters: PAGING,
      errors: LIST,
    },
  },
  '/v1/payment_links/{id}': {
    get: {
      id: 'getPaymentLink',
      summary: 'Read a payment link (any other payment is not_found)',
      ok: [{ status: 200, schema: 'PaymentLink', description: 'The link.' }],
      errors: [],
    },
  },
  '/v1/payment_links/{id}/cancel': {
    post: {
      id: 'cancelPaymentLink',
      summary: 'Cancel a payment link nobody has paid (again: unchanged)',
      ok: [{ status: 200, schema: 'PaymentLink', description: 'The link, `expired` with `canceled_at`.' }],
      body: NO_FIELDS,
      bodyOptional: true,
      errors: [...BODY, 'not_cancelable'],
    },
  },
};
