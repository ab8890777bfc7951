import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SCHEMA_EXAMPLES } from '../presenters/schema-examples.ts';
import { validateCreateCheckoutSession } from '../validation/checkout-session-schemas.ts';
import {
  validateCreatePaymentLink,
  validateCreateWebhookEndpoint,
  validateUpdateWebhookEndpoint,
} from '../validation/integration-schemas.ts';
import { validateSimulatePayment, validateStartCheckoutSession } from '../validation/payment-schemas.ts';
import { SDK_CALLS } from './code-samples.ts';
import { openApiDocument } from './document.ts';

type Json = Record<string, unknown>;

/** The reference merchants read (issue 44): every example is valid, every operation described and sampled. */

const document = openApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(document, 'doc');

const pointer = (...parts: string[]): string => `doc#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

/** The examples of one media type (`example`, or every `examples` entry's value), each with where it is. */
function mediaExamples(media: Json, at: string[]): { where: string; schemaAt: string; value: unknown }[] {
  const schemaAt = pointer(...at, 'schema');
  const named = Object.entries((media['examples'] ?? {}) as Record<string, Json>).map(([name, e]) => ({
    where: `${at.join(' ')} ${name}`,
    schemaAt,
    value: e['value'],
  }));
  return 'example' in media ? [{ where: at.join(' '), schemaAt, value: media['example'] }, ...named] : named;
}

function operations(): { path: string; method: string; operation: Json; at: string[] }[] {
  const found = [];
  for (const [root, items] of [
    ['paths', document['paths']],
    ['webhooks', document['webhooks']],
  ] as const) {
    for (const [path, item] of Object.entries(items as Record<string, Json>)) {
      for (const method of ['get', 'post', 'delete'].filter((m) => m in item)) {
        found.push({ path, method, operation: item[method] as Json, at: [root, path, method] });
      }
    }
  }
  return found;
}

function allMediaExamples(): { where: string; schemaAt: string; value: unknown }[] {
  const examples = [];
  for (const { operation, at } of operations()) {
    const body = operation['requestBody'] as Json | undefined;
    if (body)
      examples.push(
        ...mediaExamples((body['content'] as Json)['application/json'] as Json, [...at, 'requestBody', 'content', 'application/json']),
      );
    for (const [status, response] of Object.entries(operation['responses'] as Record<string, Json>)) {
      const content = response['content'] as Record<string, Json> | undefined;
      if (content)
        examples.push(...mediaExamples(content['application/json'] as Json, [...at, 'responses', status, 'content', 'application/json']));
    }
  }
  return examples;
}

describe('the reference’s examples', () => {
  it('every named schema has a description and an example valid against it', () => {
    const schemas = (document['components'] as Json)['schemas'] as Record<string, Json>;
    expect(Object.keys(SCHEMA_EXAMPLES).sort()).toEqual(Object.keys(schemas).sort());
    for (const [name, schema] of Object.entries(schemas)) {
      expect({ name, description: typeof schema['description'] }).toEqual({ name, description: 'string' });
      const validate = ajv.getSchema(pointer('components', 'schemas', name));
      const valid = validate?.(SCHEMA_EXAMPLES[name]);
      expect({ name, errors: valid ? null : validate?.errors }).toEqual({ name, errors: null });
    }
  });

  it('every request, response and error example is valid against its media type’s schema', () => {
    const examples = allMediaExamples();
    // Every operation has at least its 200 and its common errors (401, 429, 500, 503) shown.
    expect(examples.length).toBeGreaterThan(operations().length * 5);
    for (const { where, schemaAt, value } of examples) {
      expect(value).toBeDefined();
      const validate = ajv.getSchema(schemaAt);
      const valid = validate?.(value);
      expect({ where, errors: valid ? null : validate?.errors }).toEqual({ where, errors: null });
    }
  });

  it('every request example is a body the gateway accepts (its own validators, not only the document)', () => {
    const bodyOf = (path: string, method: string) =>
      ((((document['paths'] as Json)[path] as Json)[method] as Json)['requestBody'] as Json)['content'] as Record<string, Json>;
    const example = (path: string) => bodyOf(path, 'post')['application/json']?.['example'];
    expect(() => validateCreateCheckoutSession(example('/v1/checkout_sessions'))).not.toThrow();
    expect(() => validateStartCheckoutSession(example('/v1/checkout_sessions/{id}/start'))).not.toThrow();
    expect(() => validateSimulatePayment(example('/v1/payments/{id}/simulate'))).not.toThrow();
    expect(() => validateCreateWebhookEndpoint(example('/v1/webhook_endpoints'))).not.toThrow();
    expect(() => validateUpdateWebhookEndpoint(example('/v1/webhook_endpoints/{id}'))).not.toThrow();
    expect(() => validateCreatePaymentLink(example('/v1/payment_links'))).not.toThrow();
  });

  it('every parameter has a description and an example valid against its schema', () => {
    for (const { path, operation } of operations()) {
      const item = ((document['paths'] ?? {}) as Record<string, Json>)[path] ?? {};
      const parameters = [...((item['parameters'] ?? []) as Json[]), ...((operation['parameters'] ?? []) as Json[])];
      for (const parameter of parameters) {
        const where = `${path} ${String(parameter['name'])}`;
        expect({ where, description: typeof parameter['description'], example: parameter['example'] !== undefined }).toEqual({
          where,
          description: 'string',
          example: true,
        });
        const validate = ajv.compile(parameter['schema'] as Json);
        expect({ where, valid: validate(parameter['example']) }).toEqual({ where, valid: true });
      }
    }
  });

  it('every operation has a description and curl and SDK samples, the SDK’s from one table of its methods', () => {
    const ids = operations().map(({ operation }) => operation['operationId']);
    expect(Object.keys(SDK_CALLS).sort()).toEqual(ids.filter((id) => id !== 'getOpenApiDocument' && id !== 'receiveWebhookEvent').sort());
    for (const { operation } of operations()) {
      const id = operation['operationId'];
      const samples = (operation['x-codeSamples'] ?? []) as Json[];
      expect({ id, description: typeof operation['description'], samples: samples.length > 0 }).toEqual({
        id,
        description: 'string',
        samples: true,
      });
      if (id !== 'getOpenApiDocument' && id !== 'receiveWebhookEvent') {
        expect({ id, labels: samples.map((s) => s['label']) }).toEqual({ id, labels: ['curl', 'SDK'] });
      }
    }
  });
});
