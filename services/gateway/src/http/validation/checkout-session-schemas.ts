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
  success_url?: string | null;
  cancel_url?: string | null;
}

const nullableString = { type: 'string', nullable: true } as const;

const createSchema: JSONSchemaType<CreateCheckoutSessionBody> = {
  type: 'object',
  properties: {
    amount: { type: 'string' },
    currency: { type: 'string' },
    description: { type: 'string' },
    customer_email: nullableString,
    reference: nullableString,
    metadata: { type: 'object', nullable: true, required: [], additionalProperties: { type: 'string' } },
    success_url: nullableString,
    cancel_url: nullableString,
  },
  required: ['amount', 'currency', 'description'],
  // Unknown request fields are ignored (spec: Common conventions).
  additionalProperties: true,
};

const createFieldCodes: Record<keyof CreateCheckoutSessionBody, ErrorCode> = {
  amount: 'invalid_amount',
  currency: 'invalid_currency',
  description: 'invalid_description',
  customer_email: 'invalid_email',
  reference: 'invalid_reference',
  metadata: 'invalid_metadata',
  success_url: 'invalid_url',
  cancel_url: 'invalid_url',
};

export const validateCreateCheckoutSession = bodyValidator(createSchema, createFieldCodes);
