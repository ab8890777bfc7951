// Risk covered: an operator unable to follow a payment from the API request to the merchant's endpoint
// — a trace broken at a process boundary (HTTP → gRPC → outbox → NATS → consumer → delivery), a
// consumer span not parented by its producer, or a webhook POST whose traceparent belongs to no trace
// we exported. Every service runs as its own instrumented process, exporting OTLP/JSON to a receiver.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@hc/test-kit';
import { startTracedPlatform, type TracedPlatform } from './traced-processes.ts';
import { checkoutEventSubject } from '@hc/events/contracts';

const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

let receiver: OtlpReceiver;
let platform: TracedPlatform;
let merchantServer: Server;
const deliveries: { headers: IncomingHttpHeaders; type: string; paymentId: string | undefined }[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  platform = await startTracedPlatform(receiver);
  merchantServer = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const event = JSON.parse(raw) as { type: string; data: { payment: { id: string } | null } };
      deliveries.push({ headers: request.headers, type: event.type, paymentId: event.data.payment?.id });
      response.writeHead(204).end();
    });
  });
  merchantServer.listen(0, '127.0.0.1');
  await once(merchantServer, 'listening');
}, 120_000);

afterAll(async () => {
  merchantServer?.close();
  await platform?.stop();
  await receiver?.stop();
});

async function api(key: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${platform.gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  expect({ path, status: response.status, answer }).toEqual({
    path,
    status: expect.any(Number),
    answer: expect.not.objectContaining({ error: expect.anything() }),
  });
  return answer;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

describe('one payment, one trace', () => {
  let paymentId: string;
  let trace: ReceivedSpan[];
  let traceparent: string;

  it('a paid payment reaches the merchant with a W3C traceparent header', async () => {
    const merchant = await platform.merchant();
    const url = `http://127.0.0.1:${(merchantServer.address() as AddressInfo).port}/hooks`;
    await platform.operator('webhooks', 'endpoints', 'add', merchant.accountId, '--mode', 'test', '--url', url);
    const session = await api(merchant.testKey, 'POST', '/v1/checkout_sessions', {
      amount: '25.00',
      currency: 'USD',
      description: 'Traced mug',
      customer_email: 'traced@example.com',
    });
    paymentId = String(session['id']);
    await api(merchant.testKey, 'POST', `/v1/checkout_sessions/${paymentId}/start`, { country: 'de' });
    await api(merchant.testKey, 'POST', `/v1/payments/${paymentId}/simulate`, { outcome: 'paid' });

    const paid = (await eventually(
      async () => deliveries.find((d) => d.type === 'payment.paid' && d.paymentId === paymentId),
      (found) => found !== undefined,
      20_000,
    ))!;
    traceparent = String(paid.headers['traceparent']);
    expect(traceparent).toMatch(TRACEPARENT);
  });

  it('the trace of that header holds the simulate request in the gateway, checkout, settlement and webhooks', async () => {
    const traceId = TRACEPARENT.exec(traceparent)![1]!;
    // Spans arrive in batches from five processes, each on its own schedule: the gateway's batch holding
    // the request's root span, or checkout's holding a parent, can reach the receiver after the
    // delivery's. Wait for both ends of the trace and every parent (20 s at most; the test below then
    // names any span whose parent never came).
    trace = await eventually(
      async () => receiver.spans().filter((s) => s.traceId === traceId),
      (spans) =>
        spans.some((s) => s.service === 'hc-webhooks' && s.name.startsWith('webhook delivery')) &&
        spans.some((s) => s.service === 'hc-gateway' && s.parentSpanId === '') &&
        spans.every((s) => s.parentSpanId === '' || spans.some((parent) => parent.spanId === s.parentSpanId)),
      20_000,
    );
    const services = new Set(trace.map((s) => s.service));
    expect([...services].sort()).toEqual(expect.arrayContaining(['hc-checkout', 'hc-gateway', 'hc-settlement', 'hc-webhooks']));
    const roots = trace.filter((s) => s.parentSpanId === '');
    expect(roots).toEqual([expect.objectContaining({ service: 'hc-gateway', kind: SERVER })]);
    expect(roots[0]!.name).toMatch(/^POST .*simulate/);
  });

  it('every span but the root has its parent in the same trace', () => {
    const ids = new Set(trace.map((s) => s.spanId));
    const orphans = trace.filter((s) => s.parentSpanId !== '' && !ids.has(s.parentSpanId));
    expect(orphans).toEqual([]);
  });

  it('the webhooks consumer span of payment.paid is a child of the producer span of the outbox relay in checkout', () => {
    const producer = trace.find((s) => s.kind === PRODUCER && s.name.endsWith(checkoutEventSubject('payment.paid', '{id}')));
    expect(producer).toMatchObject({ service: 'hc-checkout' });
    const consumer = trace.find((s) => s.kind === CONSUMER && s.service === 'hc-webhooks');
    expect(consumer).toBeDefined();
    expect(consumer!.parentSpanId).toBe(producer!.spanId);
    const delivery = trace.find((s) => s.name === 'webhook delivery payment.paid');
    expect(delivery).toMatchObject({
      service: 'hc-webhooks',
      parentSpanId: consumer!.spanId,
      attributes: expect.objectContaining({ 'webhook.verdict': 'succeeded' }),
    });
  });

  it("the header's parent span is the delivery attempt (or its HTTP client span) in webhooks", () => {
    const parentId = TRACEPARENT.exec(traceparent)![2]!;
    const parent = trace.find((s) => s.spanId === parentId);
    expect(parent).toMatchObject({ service: 'hc-webhooks' });
    const delivery = trace.find((s) => s.name === 'webhook delivery payment.paid')!;
    expect([parent!.spanId, parent!.parentSpanId]).toContain(delivery.spanId);
  });

  it('log lines written while handling the payment carry its trace_id', () => {
    const traceId = TRACEPARENT.exec(traceparent)![1]!;
    expect(platform.output('webhooks')).toContain(`"trace_id":"${traceId}"`);
  });
});

describe('metrics of the same run (OTLP)', () => {
  const names = (service: string): string[] =>
    [
      ...new Set(
        receiver
          .metricPoints()
          .filter((p) => p.service === service)
          .map((p) => p.name),
      ),
    ].sort();
  const point = (service: string, name: string, labels: Record<string, unknown> = {}) =>
    receiver
      .metricPoints()
      .find((p) => p.service === service && p.name === name && Object.entries(labels).every(([k, v]) => p.attributes[k] === v));

  it('each service exports its own instruments with their labels', async () => {
    // A replayed create and a refused one, so the gateway's counters have something to count.
    const merchant = await platform.merchant();
    const headers = { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json', 'idempotency-key': 'order-1' };
    const body = JSON.stringify({ amount: '5.00', currency: 'USD', description: 'Replayed mug' });
    for (const expected of [201, 200])
      expect((await fetch(`${platform.gatewayUrl}/v1/checkout_sessions`, { method: 'POST', headers, body })).status).toBe(expected);
    const conflict = await fetch(`${platform.gatewayUrl}/v1/checkout_sessions`, {
      method: 'POST',
      headers,
      body: body.replace('5.00', '6.00'),
    });
    expect(conflict.status).toBe(409);
    // Each process exports on its own interval; on a loaded machine one export can carry only part of
    // the instruments, so wait (bounded) until every expected point has arrived, then name what is missing.
    const expected: Array<[service: string, name: string, labels?: Record<string, unknown>]> = [
      ['hc-gateway', 'hc.api.errors', { 'error.code': 'idempotency_conflict' }],
      ['hc-gateway', 'hc.idempotency.replays'],
      ['hc-gateway', 'http.server.request.duration', { 'http.route': '/v1/payments/:id/simulate', 'http.request.method': 'POST' }],
      ['hc-checkout', 'hc.outbox.backlog'],
      ['hc-checkout', 'hc.outbox.oldest_age'],
      ['hc-checkout', 'hc.outbox.published'],
      [
        'hc-checkout',
        'rpc.server.call.duration',
        { 'rpc.service': 'hc.checkout.v1.CheckoutService', 'rpc.method': 'SimulatePayment', 'rpc.grpc.status_code': 0 },
      ],
      ['hc-webhooks', 'hc.consumer.ack_pending'],
      ['hc-webhooks', 'hc.consumer.pending'],
      ['hc-webhooks', 'hc.consumer.messages', { consumer: 'webhooks_payment_events', outcome: 'acked' }],
      ['hc-webhooks', 'hc.webhooks.attempt.duration'],
      ['hc-webhooks', 'hc.webhooks.attempts', { verdict: 'succeeded', 'webhook.event_type': 'payment.paid' }],
      ['hc-webhooks', 'hc.webhooks.delivery.lag'],
    ];
    const missing = (): string[] =>
      expected
        .filter(([service, name, labels]) => point(service, name, labels) === undefined)
        .map(([service, name]) => `${service} ${name}`);
    await eventually(
      async () => missing(),
      (left) => left.length === 0,
      20_000,
    );
    expect(missing()).toEqual([]);
    expect(names('hc-gateway')).toEqual(
      expect.arrayContaining(['hc.api.errors', 'hc.idempotency.replays', 'http.server.request.duration']),
    );
  });
});
