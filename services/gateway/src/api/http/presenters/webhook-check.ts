import type { CheckEndpointResponse } from '@hc/proto/webhooks/v1';
import type { JsonSchema } from './schemas.ts';

/** One check of the endpoint checker as the API answers it (docs/webhooks.md#checking-an-endpoint). */
export interface EndpointCheckObject {
  id: string;
  title: string;
  passed: boolean;
  expected: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  explanation: string;
  guide: string;
}

export interface WebhookEndpointCheckObject {
  object: 'webhook_endpoint_check';
  endpoint_id: string;
  url: string;
  livemode: false;
  created: number;
  score: string;
  passed: number;
  total: number;
  timeout_ms: number;
  checks: EndpointCheckObject[];
}

export function webhookEndpointCheckObject(report: CheckEndpointResponse): WebhookEndpointCheckObject {
  const passed = report.checks.filter((c) => c.passed).length;
  return {
    object: 'webhook_endpoint_check',
    endpoint_id: report.endpointId,
    url: report.url,
    livemode: false,
    created: Number(report.created),
    score: `${passed}/${report.checks.length}`,
    passed,
    total: report.checks.length,
    timeout_ms: report.timeoutMs,
    checks: report.checks.map((c) => ({
      id: c.id,
      title: c.title,
      passed: c.passed,
      expected: c.expected,
      status_code: c.statusCode ?? null,
      error: c.error ?? null,
      latency_ms: c.latencyMs,
      explanation: c.explanation,
      guide: c.guide,
    })),
  };
}

const CHECK_IDS = ['valid_signature', 'invalid_signature', 'stale_timestamp', 'replay', 'out_of_order', 'unknown_type'];

const closed = (description: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

export const WEBHOOK_ENDPOINT_CHECK_SCHEMA: JsonSchema = closed(
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

const EXAMPLE_CHECK = (id: string, title: string, expected: '2xx' | '4xx', status: number): EndpointCheckObject => ({
  id,
  title,
  passed: true,
  expected,
  status_code: status,
  error: null,
  latency_ms: 14,
  explanation: `${title}: your endpoint answered HTTP ${status}.`,
  guide: `docs/webhooks.md#check-${id.replaceAll('_', '-')}`,
});

export const WEBHOOK_ENDPOINT_CHECK_EXAMPLE = (endpointId: string, created: number): WebhookEndpointCheckObject => ({
  object: 'webhook_endpoint_check',
  endpoint_id: endpointId,
  url: 'https://shop.example.com/webhooks/hosted-checkout',
  livemode: false,
  created,
  score: '5/6',
  passed: 5,
  total: 6,
  timeout_ms: 10_000,
  checks: [
    EXAMPLE_CHECK('valid_signature', 'Accepts a correctly signed delivery', '2xx', 200),
    EXAMPLE_CHECK('invalid_signature', 'Rejects a wrong signature', '4xx', 400),
    {
      ...EXAMPLE_CHECK('stale_timestamp', 'Rejects an old timestamp', '4xx', 200),
      passed: false,
      explanation:
        'We sent a payment.paid delivery correctly signed, but with a webhook-timestamp 10 minutes old. It answered HTTP 200. ' +
        'A delivery captured on the way could be replayed to you later. Refuse a webhook-timestamp more than 5 minutes from your clock.',
    },
    EXAMPLE_CHECK('replay', 'Accepts a repeated event id', '2xx', 200),
    EXAMPLE_CHECK('out_of_order', 'Accepts events out of order', '2xx', 200),
    EXAMPLE_CHECK('unknown_type', 'Accepts an unknown event type', '2xx', 200),
  ],
});
