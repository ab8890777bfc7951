import type { JSONSchemaType } from 'ajv';
import type { ErrorCode } from '@hc/errors';
import { bodyValidator } from './validate.ts';

/** Body of POST /v1/checkout_sessions as JSON types; ranges and formats are the checkout service's rules. */
export interface CreateCheckoutSessionBody {
  amount: string;
  currency: string;
  description: string;
  customer_email?: string | null;
  reference?: string | null;
  metadata?: Record<string, string> | null;
  locale?: string | null;
  success_url?: string | null;
  cancel_url?: string | null;
  customer?: CustomerBody | null;
}

/** The optional `customer` object (docs/customers.md); lengths and formats are checkout's rules. */
export interface CustomerBody {
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  shipping_address?: AddressBody | null;
  billing_address?: AddressBody | null;
  store_account?: StoreAccountBody | null;
}

export const ADDRESS_KEYS = ['name', 'line1', 'line2', 'city', 'region', 'postal_code', 'country'] as const;
export type AddressBody = { [K in (typeof ADDRESS_KEYS)[number]]?: string | null };

export interface StoreAccountBody {
  platform?: string | null;
  store_id?: string | null;
  store_name?: string | null;
  customer_id?: string | null;
}

const nullableString = { type: 'string', nullable: true } as const;

const addressSchema = {
  type: 'object',
  nullable: true,
  properties: Object.fromEntries(ADDRESS_KEYS.map((key) => [key, nullableString])),
  additionalProperties: true,
} as const;

const customerSchema = {
  type: 'object',
  nullable: true,
  properties: {
    email: nullableString,
    name: nullableString,
    phone: nullableString,
    shipping_address: addressSchema,
    billing_address: addressSchema,
    store_account: {
      type: 'object',
      nullable: true,
      properties: { platform: nullableString, store_id: nullableString, store_name: nullableString, customer_id: nullableString },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
} as const;

/** Also the request body of the OpenAPI document (openapi/document.ts): one source of truth. */
/** What a session and a payment link (validation/integration-schemas.ts) are both made of. */
export const ORDER_FIELD_SCHEMAS = {
  amount: { type: 'string' },
  currency: { type: 'string' },
  description: { type: 'string' },
  customer_email: nullableString,
  reference: nullableString,
  // Metadata values may hold line breaks and tabs (docs/api-errors.md, "Text"); no other field may.
  metadata: { type: 'object', nullable: true, required: [], additionalProperties: { type: 'string', text: 'line-breaks' } },
  // The buyer's language on the pages and in the receipt (docs/adr/0089); checkout knows the list.
  locale: {
    type: 'string',
    nullable: true,
    description:
      'The language of the buyer’s pages and receipt: `en`, `de`, `fr`, `es`, `it`, `nl`, `pt-BR`, `pl`, `ja` or `ar`; otherwise `invalid_locale`. Absent or null: the buyer’s browser decides (Accept-Language); the buyer may still pick another language on the page.',
  },
} as const;

export const ORDER_FIELD_CODES = {
  amount: 'invalid_amount',
  currency: 'invalid_currency',
  description: 'invalid_description',
  customer_email: 'invalid_email',
  reference: 'invalid_reference',
  metadata: 'invalid_metadata',
  locale: 'invalid_locale',
} as const satisfies Record<keyof typeof ORDER_FIELD_SCHEMAS, ErrorCode>;

export const createCheckoutSessionSchema: JSONSchemaType<CreateCheckoutSessionBody> = {
  type: 'object',
  properties: {
    ...ORDER_FIELD_SCHEMAS,
    success_url: nullableString,
    cancel_url: nullableString,
    // The nested shape is typed by CustomerBody; JSONSchemaType cannot follow the generated key lists.
    customer: customerSchema as unknown as JSONSchemaType<CreateCheckoutSessionBody>['properties']['customer'],
  },
  required: ['amount', 'currency', 'description'],
  // Unknown request fields are ignored (spec: Common conventions).
  additionalProperties: true,
};

// The order errors are reported in: the first field listed wins. Nested customer fields are named
// by their path (`customer.shipping_address.city`).
const createFieldCodes: Record<string, ErrorCode> = {
  ...ORDER_FIELD_CODES,
  success_url: 'invalid_url',
  cancel_url: 'invalid_url',
  customer: 'invalid_customer',
  'customer.email': 'invalid_email',
  'customer.name': 'invalid_customer',
  'customer.phone': 'invalid_customer',
  ...Object.fromEntries(
    (['shipping_address', 'billing_address'] as const).flatMap((address) => [
      [`customer.${address}`, 'invalid_customer'],
      ...ADDRESS_KEYS.map((key) => [`customer.${address}.${key}`, 'invalid_customer']),
    ]),
  ),
  'customer.store_account': 'invalid_customer',
  ...Object.fromEntries(
    ['platform', 'store_id', 'store_name', 'customer_id'].map((key) => [`customer.store_account.${key}`, 'invalid_customer']),
  ),
};

export const validateCreateCheckoutSession = bodyValidator(createCheckoutSessionSchema, createFieldCodes);
