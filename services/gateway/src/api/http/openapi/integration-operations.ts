import { createPaymentLinkSchema, createWebhookEndpointSchema, updateWebhookEndpointSchema } from '../validation/integration-schemas.ts';
import { BODY, IDEMPOTENT, idempotencyKeyHeader, LIST, NO_FIELDS, PAGING, type Operation } from './operation-parts.ts';
import { toOpenApiSchema } from './request-schemas.ts';

type Method = 'get' | 'post' | 'delete';

/** Webhook endpoints and payment links with the secret key (issue 29, ADR 0045). */
export const INTEGRATION_OPERATIONS: Record<string, Partial<Record<Method, Operation>>> = {
  '/v1/webhook_endpoints': {
    post: {
      id: 'createWebhookEndpoint',
      description:
        "Registers a URL that receives the key's mode's events, signed with the endpoint's `whsec_` secret. The secret is answered only here: store it to verify deliveries.",
      example: {
        url: 'https://shop.example.com/webhooks/hosted-checkout',
        description: 'Fulfil paid orders',
        enabled_events: ['payment.paid', 'payment.failed'],
      },
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
      description: "Every webhook endpoint of the key's mode on one page, oldest first; secrets are never read back.",
      summary: 'List the webhook endpoints of the key’s mode, oldest first (one page)',
      ok: [{ status: 200, schema: 'WebhookEndpointList', description: 'Every endpoint of this mode.' }],
      errors: [],
    },
  },
  // Before {id}: the OpenAPI fuzz runs operations in document order, and DELETE would take its ids.
  '/v1/webhook_endpoints/{id}/rotate_secret': {
    post: {
      id: 'rotateWebhookEndpointSecret',
      description:
        'Makes a new signing secret. Deliveries are signed with both until `previous_secret_expires_at`, so deploy the new secret before then.',
      example: {},
      summary: 'Make a new signing secret (the previous one keeps signing until previous_secret_expires_at)',
      ok: [{ status: 200, schema: 'RotatedWebhookEndpoint', description: 'The endpoint and its new secret, shown only here.' }],
      body: NO_FIELDS,
      bodyOptional: true,
      errors: BODY,
    },
  },
  '/v1/webhook_endpoints/{id}/check': {
    post: {
      id: 'checkWebhookEndpoint',
      description:
        'Test endpoints only. Sends six deliveries signed as real ones (a correct one, a wrong signature, a timestamp 10 minutes old, ' +
        'a replay of an event id, two events of one payment out of order, an unknown event type) and grades the answers: 4xx for ' +
        'the forged and the stale one, 2xx for the rest, each within the delivery timeout (`timeout_ms`, 10 s). The deliveries ' +
        'are marked as checks (`evt_check_` ids, header `webhook-check: true`, `livemode: false`) and are never events, deliveries ' +
        'or attempts of the account. At most 5 checks a minute per account. A Live key is `test_mode_only`. ' +
        'Guide: docs/webhooks.md#checking-an-endpoint.',
      example: {},
      summary: 'Check a Test webhook endpoint: six signed deliveries it must handle, graded N/6',
      ok: [
        {
          status: 200,
          schema: 'WebhookEndpointCheck',
          description: 'Each check with its verdict, the status seen, an explanation and the guide’s section.',
        },
      ],
      body: NO_FIELDS,
      bodyOptional: true,
      errors: [...BODY, 'test_mode_only'],
    },
  },
  '/v1/webhook_endpoints/{id}': {
    get: {
      id: 'getWebhookEndpoint',
      description: 'Reads a webhook endpoint (never its secret).',
      summary: 'Read a webhook endpoint',
      ok: [{ status: 200, schema: 'WebhookEndpoint', description: 'The endpoint (never its secret).' }],
      errors: [],
    },
    post: {
      id: 'updateWebhookEndpoint',
      description:
        'Changes only the fields sent: `url`, `description` (null clears it), `enabled_events`, or `status` (`disabled` stops deliveries; `enabled` resumes them).',
      example: { enabled_events: ['*'], status: 'enabled' },
      summary: 'Change a webhook endpoint: url, description (null clears), enabled_events, status enabled/disabled',
      ok: [{ status: 200, schema: 'WebhookEndpoint', description: 'The endpoint as changed.' }],
      body: toOpenApiSchema(updateWebhookEndpointSchema),
      errors: [...BODY, 'invalid_url', 'invalid_description', 'invalid_event_types'],
    },
    delete: {
      id: 'deleteWebhookEndpoint',
      description: 'Deletes a webhook endpoint; its pending deliveries stop.',
      summary: 'Delete a webhook endpoint (its pending deliveries stop)',
      ok: [{ status: 200, schema: 'DeletedWebhookEndpoint', description: 'Deleted.' }],
      errors: [],
    },
  },
  '/v1/payment_links': {
    post: {
      id: 'createPaymentLink',
      description:
        'Creates a payment with its own lifetime for one payer, as the dashboard does: send its `url` to the payer, who can follow it on `tracking_url`. Send an `Idempotency-Key` so a retry cannot make two links.',
      example: {
        amount: '19.90',
        currency: 'USD',
        description: 'Blue mug',
        customer_email: 'ann@example.com',
        customer_name: 'Ann Example',
        memo: 'Thanks for your order!',
        lifetime: '7d',
      },
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
        'invalid_locale',
        ...IDEMPOTENT,
        'no_payout_wallet',
      ],
    },
    get: {
      id: 'listPaymentLinks',
      description: "Pages through the payment links of the key's mode, newest first.",
      summary: 'List payment links, newest first',
      ok: [{ status: 200, schema: 'PaymentLinkList', description: 'A page of payment links.' }],
      parameters: PAGING,
      errors: LIST,
    },
  },
  '/v1/payment_links/{id}': {
    get: {
      id: 'getPaymentLink',
      description: "Reads a payment link; any other payment's id is not_found.",
      summary: 'Read a payment link (any other payment is not_found)',
      ok: [{ status: 200, schema: 'PaymentLink', description: 'The link.' }],
      errors: [],
    },
  },
  '/v1/payment_links/{id}/cancel': {
    post: {
      id: 'cancelPaymentLink',
      description:
        'Cancels a link nobody has paid: it becomes `expired` with `canceled_at`. Canceling again answers it unchanged; a paid link is `not_cancelable`.',
      example: {},
      summary: 'Cancel a payment link nobody has paid (again: unchanged)',
      ok: [{ status: 200, schema: 'PaymentLink', description: 'The link, `expired` with `canceled_at`.' }],
      body: NO_FIELDS,
      bodyOptional: true,
      errors: [...BODY, 'not_cancelable'],
    },
  },
};
