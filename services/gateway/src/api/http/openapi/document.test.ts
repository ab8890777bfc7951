import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
// The event contract the webhooks context sends from (@hc/webhooks re-exports it): importing the webhooks
// service itself would make a cycle of workspace packages (checkout's test stack runs the gateway's admin listener).
import { PAYMENT_EVENT_TYPES } from '@hc/events/contracts';
import { OPENAPI_FILE } from '../../../write-openapi.ts';
import { validateCreateCheckoutSession } from '../validation/checkout-session-schemas.ts';
import { openApiDocument, openApiText, WEBHOOK_EVENT_TYPES } from './document.ts';

type Json = Record<string, unknown>;

describe('the OpenAPI document', () => {
  it('docs/openapi.json is the document the gateway builds (run `pnpm openapi` when this fails)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
  });

  it('lists exactly the webhook event types the webhooks context sends, plus ping', () => {
    expect([...WEBHOOK_EVENT_TYPES]).toEqual([...PAYMENT_EVENT_TYPES, 'ping']);
  });

  it('describes the create body with the schema the gateway validates with (null accepted where ajv allows it)', () => {
    const document = openApiDocument();
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document, 'doc');
    const validate = ajv.getSchema('doc#/paths/~1v1~1checkout_sessions/post/requestBody/content/application~1json/schema');
    const accepted = {
      amount: '10.00',
      currency: 'USD',
      description: 'x',
      reference: null,
      metadata: { a: 'b' },
      customer: { name: null, shipping_address: { city: 'Paris', line2: null } },
    };
    expect(validateCreateCheckoutSession(accepted)).toBe(accepted);
    expect(validate?.(accepted)).toBe(true);
    const refused = { amount: 10, currency: 'USD', description: 'x' };
    expect(() => validateCreateCheckoutSession(refused)).toThrow();
    expect(validate?.(refused)).toBe(false);
  });

  it('documents every /v1 operation with its errors, each response with Cache-Control: no-store', () => {
    const paths = openApiDocument()['paths'] as Record<string, Record<string, Json>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of ['get', 'post'].filter((m) => m in item)) {
        const responses = item[method]?.['responses'] as Record<string, Json>;
        expect({ path, method, statuses: Object.keys(responses) }).toEqual(
          expect.objectContaining({ statuses: expect.arrayContaining(['401', '429', '500', '503']) }),
        );
        for (const response of Object.values(responses)) {
          expect((response['headers'] as Json)['Cache-Control']).toEqual(expect.objectContaining({ schema: { const: 'no-store' } }));
        }
      }
    }
  });
});
