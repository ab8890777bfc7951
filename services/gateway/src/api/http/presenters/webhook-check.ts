import type { CheckEndpointResponse } from '@hc/proto/webhooks/v1';

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
