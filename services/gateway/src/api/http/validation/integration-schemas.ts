import type { JSONSchemaType } from 'ajv';
import type { ErrorCode } from '@hc/errors';
import { ORDER_FIELD_CODES, ORDER_FIELD_SCHEMAS } from './checkout-session-schemas.ts';
import { bodyValidator } from './validate.ts';

/**
 * Bodies of /v1/webhook_endpoints and /v1/payment_links (issue 29, ADR 0045): JSON types here; the
 * rules (URL safety, event types, lengths, lifetimes) stay with the webhooks and checkout services,
 * which answer with the field's code.
 */
export interface CreateWebhookEndpointBody {
  url: string;
  description?: string | null;
  enabled_events?: string[] | null;
}

export interface UpdateWebhookEndpointBody {
  url?: string | null;
  description?: string | null;
  enabled_events?: string[] | null;
  status?: string | null;
}

const nullableString = { type: 'string', nullable: true } as const;
const eventTypes = { type: 'array', nullable: true, items: { type: 'string' } } as const;

export const createWebhookEndpointSchema: JSONSchemaType<CreateWebhookEndpointBody> = {
  type: 'object',
  properties: { url: { type: 'string' }, description: nullableString, enabled_events: eventTypes },
  required: ['url'],
  additionalProperties: true,
};

export const updateWebhookEndpointSchema: JSONSchemaType<UpdateWebhookEndpointBody> = {
  type: 'object',
  properties: {
    url: nullableString,
    description: nullableString,
    enabled_events: eventTypes,
    status: { type: 'string', nullable: true, enum: ['enabled', 'disabled', null] },
  },
  required: [],
  additionalProperties: true,
};

const endpointCodes: Record<string, ErrorCode> = {
  url: 'invalid_url',
  description: 'invalid_description',
  enabled_events: 'invalid_event_types',
  status: 'invalid_request',
};

export const validateCreateWebhookEndpoint = bodyValidator(createWebhookEndpointSchema, endpointCodes);
export const validateUpdateWebhookEndpoint = bodyValidator(updateWebhookEndpointSchema, endpointCodes);

export interface CreatePaymentLinkBody {
  amount: string;
  currency: string;
  description: string;
  customer_email?: string | null;
  reference?: string | null;
  metadata?: Record<string, string> | null;
  locale?: string | null;
  customer_name?: string | null;
  memo?: string | null;
  lifetime?: string | null;
}

export const createPaymentLinkSchema: JSONSchemaType<CreatePaymentLinkBody> = {
  type: 'object',
  properties: {
    ...ORDER_FIELD_SCHEMAS,
    customer_name: nullableString,
    // A note to the payer may span lines, as on the dashboard's form.
    memo: { type: 'string', nullable: true, text: 'line-breaks' },
    lifetime: nullableString,
  },
  required: ['amount', 'currency', 'description'],
  additionalProperties: true,
};

export const validateCreatePaymentLink = bodyValidator(createPaymentLinkSchema, {
  ...ORDER_FIELD_CODES,
  customer_name: 'invalid_customer_name',
  memo: 'invalid_memo',
  lifetime: 'invalid_lifetime',
});
