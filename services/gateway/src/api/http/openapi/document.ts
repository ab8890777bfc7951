import { API_ERRORS, type ErrorCode } from '@hc/errors';
import { SCHEMA_EXAMPLES } from '../presenters/schema-examples.ts';
import { responseSchemas, type JsonSchema } from '../presenters/schemas.ts';
import { codeSamples, exampleId, webhookCodeSamples } from './code-samples.ts';
import { INTEGRATION_OPERATIONS } from './integration-operations.ts';
import { COMMON, idParameter, UNAVAILABLE, type Operation } from './operation-parts.ts';
import { PAYMENT_OPERATIONS, WEBHOOK_EVENT_TYPES } from './payment-operations.ts';

export { WEBHOOK_EVENT_TYPES };

/**
 * The OpenAPI 3.1 document of the public /v1 API, built from the schemas the gateway validates
 * requests with (validation/) and the response schemas beside the presenters, and the error codes
 * of @hc/errors. Served at GET /v1/openapi.json and committed as docs/openapi.json
 * (`pnpm openapi` rewrites it; a test fails when the copy is stale). ADR 0021.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

type Method = 'get' | 'post' | 'delete';

const OPERATIONS: Record<string, Partial<Record<Method, Operation>>> = {
  ...PAYMENT_OPERATIONS,
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
            // Narrows `code`; `message` and `field` repeat Error's, for linters that close open schemas (Redocly's examples rule).
            properties: { error: { properties: { code: { enum: statusCodes }, message: { type: 'string' }, field: { type: 'string' } } } },
          },
          // One example per code, so every error code of the reference shows its body.
          examples: Object.fromEntries(
            statusCodes.map((code) => [code, { summary: code, value: { error: { code, message: API_ERRORS[code].message } } }]),
          ),
        },
      },
    };
  }
  return responses;
}

function operationObject(operation: Operation, method: Method, path: string): JsonSchema {
  const responses: Record<string, JsonSchema> = {};
  for (const ok of operation.ok) {
    responses[String(ok.status)] = {
      description: ok.description,
      headers: RESPONSE_HEADERS,
      content: { 'application/json': { schema: ref(ok.schema), example: SCHEMA_EXAMPLES[ok.schema] } },
    };
  }
  const body = operation.body
    ? { required: !operation.bodyOptional, content: { 'application/json': { schema: operation.body, example: operation.example } } }
    : undefined;
  return {
    operationId: operation.id,
    summary: operation.summary,
    description: operation.description,
    ...(operation.parameters ? { parameters: operation.parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...responses, ...errorResponses(operation.errors) },
    'x-codeSamples': codeSamples(operation.id, method, path, operation.example),
  };
}

function paths(): Record<string, JsonSchema> {
  const result: Record<string, JsonSchema> = {
    '/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        description: 'The OpenAPI 3.1 document of this API, the source of the reference at /docs and of the SDK’s types. No key needed.',
        'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: 'curl -s "$GATEWAY_URL/v1/openapi.json"' }],
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI document of the API, no key needed.',
            headers: RESPONSE_HEADERS,
            content: {
              'application/json': {
                schema: { type: 'object', properties: { openapi: { const: '3.1.0' }, info: { type: 'object' } }, required: ['openapi'] },
                example: { openapi: '3.1.0', info: { title: 'Hosted Checkout and Payments API', version: 'v1' } },
              },
            },
          },
          ...errorResponses([]),
        },
      },
    },
  };
  for (const [path, methods] of Object.entries(OPERATIONS)) {
    const item: JsonSchema = {};
    const id = path.includes('{id}') ? [idParameter('The object’s id; another account’s or mode’s id is not_found.', exampleId(path))] : [];
    if (id.length > 0) item['parameters'] = id;
    for (const method of ['get', 'post', 'delete'] as const) {
      const operation = methods[method];
      if (operation) item[method] = operationObject(operation, method, path);
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
          description:
            'Signed with the endpoint’s `whsec_` secret (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature): ' +
            'verify the signature on the raw body, answer 2xx quickly, and deduplicate by the event `id`, since a delivery may repeat.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('WebhookEvent'), example: SCHEMA_EXAMPLES['WebhookEvent'] } },
          },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else is retried.' } },
          'x-codeSamples': webhookCodeSamples(),
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A Test (`sk_test_`) or Live (`sk_live_`) secret key.' },
      },
      schemas: withExamples(responseSchemas(Object.keys(API_ERRORS), WEBHOOK_EVENT_TYPES)),
    },
  };
}

/** Each named schema with its example (presenters/schema-examples.ts). */
function withExamples(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [
      name,
      name in SCHEMA_EXAMPLES ? { ...schema, examples: [SCHEMA_EXAMPLES[name]] } : schema,
    ]),
  );
}

/** The document as committed in docs/openapi.json and served: two-space JSON and a final newline. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
