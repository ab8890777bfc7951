// Risk covered (issue 18, degradation): with NATS down, creates, starts and simulates failing (or
// their events lost) instead of committing to the outbox and being published once NATS is back;
// services needing a restart of their own after PostgreSQL restarts; a webhook endpoint that never
// answers holding back deliveries to others. The real supervised platform on a PostgreSQL and NATS of
// the test's own (e2e/faults/disposable-platform.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@hc/test-kit';
import { startDisposablePlatform, unplannedDeaths, type DisposablePlatform } from '../faults/disposable-platform.ts';

let setup: DisposablePlatform;
let passed = 0;

beforeAll(async () => {
  setup = await startDisposablePlatform('degrade');
}, 180_000);

afterAll(async () => {
  await setup?.stop(passed < 3);
});

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${setup.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function paidPayment(): Promise<{ id: string; statuses: number[] }> {
  const created = await post('/v1/checkout_sessions', {
    amount: '12.00',
    currency: 'USD',
    description: 'Degraded',
    customer_email: 'deg@example.com',
  });
  const id = String(created.body['id']);
  const started = await post(`/v1/checkout_sessions/${id}/start`, {});
  const simulated = await post(`/v1/payments/${id}/simulate`, { outcome: 'paid' });
  return { id, statuses: [created.status, started.status, simulated.status] };
}

const typesFor = (id: string): string[] =>
  setup.receiver.deliveries
    .filter((d) => d.paymentId === id)
    .map((d) => d.type)
    .sort();

describe('NATS down', () => {
  it('still commits creates, starts and simulates; their events are published once NATS is back, each once', async () => {
    await setup.nats.kill();
    const payments = [await paidPayment(), await paidPayment(), await paidPayment()];
    for (const p of payments) expect(p.statuses).toEqual([201, 200, 200]);
    const read = await fetch(`${setup.gatewayUrl}/v1/payments/${payments[0]!.id}`, { headers: { authorization: `Bearer ${setup.key}` } });
    expect(((await read.json()) as { status: string }).status).toBe('paid');
    // Nothing can have left while NATS was away.
    for (const p of payments) expect(typesFor(p.id)).toEqual([]);

    await setup.nats.start();
    for (const p of payments)
      expect(
        await eventually(
          async () => typesFor(p.id),
          (types) => types.length >= 2,
          60_000,
        ),
      ).toEqual(['payment.paid', 'payment.started']);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    for (const p of payments) expect(typesFor(p.id)).toEqual(['payment.paid', 'payment.started']);
    passed += 1;
  }, 120_000);
});

describe('PostgreSQL restarted', () => {
  it('is ridden out: services reconnect by themselves (no process restarts) and serve again', async () => {
    const marker = setup.platform.stderr().length;
    await setup.postgres.restart(500);
    const p = await eventually(
      () => paidPayment().catch(() => ({ id: '', statuses: [0] })),
      (x) => x.statuses.join() === '201,200,200',
      60_000,
    );
    expect(p.statuses).toEqual([201, 200, 200]);
    await eventually(
      async () => typesFor(p.id),
      (types) => types.length >= 2,
      60_000,
    );
    expect(unplannedDeaths(setup.platform.stderr().slice(marker))).toEqual([]);
    expect(setup.platform.stderr().slice(marker)).not.toMatch(/exited unexpectedly/);
    passed += 1;
  }, 120_000);
});

describe('a webhook endpoint that never answers', () => {
  let hanging: Server;
  afterAll(async () => {
    hanging?.closeAllConnections();
    await new Promise<void>((resolve) => (hanging ? hanging.close(() => resolve()) : resolve()));
  });

  it('does not hold back deliveries to the other endpoint', async () => {
    let held = 0;
    hanging = createServer(() => {
      held += 1; // accepts the request and never answers
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    await setup.operator(
      'webhooks',
      'endpoints',
      'add',
      setup.platform.printed['DEMO_ACCOUNT_ID']!,
      '--mode',
      'test',
      '--url',
      `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/never`,
    );
    const began = Date.now();
    const payments = await Promise.all([paidPayment(), paidPayment(), paidPayment(), paidPayment()]);
    for (const p of payments)
      await eventually(
        async () => typesFor(p.id),
        (types) => types.length >= 2,
        30_000,
      );
    // Delivered to the answering endpoint while the other still hangs (its attempts time out after 5 s).
    expect(held).toBeGreaterThan(0);
    expect(Date.now() - began).toBeLessThan(15_000);
    passed += 1;
  }, 120_000);
});
