// Risk covered: a failing, slow, redirecting or vanished endpoint — retries keep the same evt_ id on
// a shortened schedule (configuration, no long waits), Retry-After is honoured, 410 and a long
// failing streak disable the endpoint, redirects are not followed, and a slow endpoint holds back
// no other. Pings make the deliveries: the failure handling is the same for every event.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { testNatsPrefix } from '@hc/test-kit';
import { WebhookReceiver } from './support/receiver.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-failures-test', { level: 'silent' });
const ctx = testScope('acct_F');
let webhooks: WebhooksStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  // Schedule: at once, then 100 ms three times (4 attempts); an attempt times out after 500 ms.
  webhooks = await startWebhooksStack(logger, testNatsPrefix('webhooks_failures'), {
    WEBHOOKS_DISABLE_AFTER_FAILING: '1500ms',
    WEBHOOKS_FAILING_ALERT_AFTER: '1s',
  });
});

afterAll(async () => {
  await webhooks.stop();
  await receiver.stop();
});

async function endpointAt(path: string): Promise<string> {
  const { endpoint, secret } = await webhooks.client.createEndpoint({ url: receiver.url(path) }, ctx);
  receiver.trust(secret);
  return endpoint!.id;
}

async function ping(endpointId: string): Promise<string> {
  return (await webhooks.client.sendPing({ endpointId }, ctx)).event!.id;
}

// Its waits are about what the workers do, not how fast a loaded machine does it (settled's 30 s).
jest.setTimeout(60_000);

/** Waits until the delivery of `eventId` is finished (succeeded, failed or canceled). */
async function settled(eventId: string): Promise<void> {
  // Generous: the test is about how many attempts run at once, not how fast a loaded machine is.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const open = await webhooks.prisma.webhookDelivery.count({ where: { eventId, status: { in: ['pending', 'delivering'] } } });
    if (open === 0) return;
    if (Date.now() > deadline) throw new Error(`delivery of ${eventId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The endpoint alerts queued for the merchant (docs/adr/0049), once the relay published them. */
async function alertsOf(endpointId: string): Promise<{ subject: string; type: string; disabledReason: string }[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const rows = await webhooks.prisma.outboxMessage.findMany({
      where: { subject: { endsWith: `.${endpointId}` } },
      orderBy: { seq: 'asc' },
    });
    if ((rows.length > 0 && rows.every((r) => r.publishedAt !== null)) || Date.now() > deadline)
      return rows.map((r) => {
        const payload = r.payload as { type: string; disabledReason: string; accountId: string };
        return { subject: r.subject, type: payload.type, disabledReason: payload.disabledReason };
      });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const attemptsOf = async (eventId: string) => (await webhooks.client.listDeliveryAttempts({ eventId }, ctx)).attempts;

describe('retries', () => {
  it('after 500s, with the same evt_ id and a valid signature each time, until a 2xx', async () => {
    const id = await endpointAt('/flaky');
    receiver.respond('/flaky', (_d, nth) => (nth <= 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    const eventId = await ping(id);
    await settled(eventId);
    const received = receiver.at('/flaky');
    expect(received.map((d) => d.body.id)).toEqual([eventId, eventId, eventId]);
    expect(received.every((d) => d.verifiedBy.length === 1 && d.headers['webhook-id'] === eventId)).toBe(true);
    const attempts = await attemptsOf(eventId);
    expect(attempts.map((a) => [a.attemptNumber, a.statusCode, a.succeeded])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 204, true],
    ]);
    expect(attempts[0]!.responseSnippet).toBe('boom');
    expect(attempts[0]!.nextAttemptAt).toBeGreaterThan(Number(attempts[0]!.attemptedAt));
  });

  it('after a timeout', async () => {
    const id = await endpointAt('/slow-once');
    receiver.respond('/slow-once', (_d, nth) => (nth === 1 ? { status: 200, delayMs: 1500 } : { status: 200 }));
    const eventId = await ping(id);
    await settled(eventId);
    const attempts = await attemptsOf(eventId);
    expect(attempts.map((a) => [a.error ?? null, a.statusCode ?? null, a.succeeded])).toEqual([
      ['timeout after 500 ms', null, false],
      [null, 200, true],
    ]);
    expect(receiver.at('/slow-once').map((d) => d.body.id)).toEqual([eventId, eventId]);
  });

  it('honours Retry-After (in seconds) over the shorter schedule', async () => {
    const id = await endpointAt('/busy');
    receiver.respond('/busy', (_d, nth) => (nth === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 }));
    const eventId = await ping(id);
    await settled(eventId);
    const [first, second] = receiver.at('/busy');
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('gives up after the schedule, refusing to follow redirects', async () => {
    const id = await endpointAt('/moved');
    receiver.respond('/moved', () => ({ status: 302, headers: { location: receiver.url('/elsewhere') } }));
    const eventId = await ping(id);
    await settled(eventId);
    expect(receiver.at('/moved')).toHaveLength(4);
    expect(receiver.at('/elsewhere')).toHaveLength(0);
    expect((await attemptsOf(eventId)).map((a) => a.statusCode)).toEqual([302, 302, 302, 302]);
    const delivery = await webhooks.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId } });
    expect(delivery.status).toBe('failed');
    // A streak shorter than WEBHOOKS_DISABLE_AFTER_FAILING (1.5 s here) leaves it enabled. The four
    // attempts take about 0.4 s, but a loaded machine (CI) can stretch them past 1.5 s, and then the
    // endpoint is rightly disabled for failing: the expectation follows the streak the log shows.
    const logged = await webhooks.prisma.deliveryAttempt.findMany({ where: { eventId }, orderBy: { attemptedAt: 'asc' } });
    const last = logged[logged.length - 1]!;
    const streakMs = last.attemptedAt.getTime() + last.latencyMs - logged[0]!.attemptedAt.getTime();
    const endpoint = (await webhooks.client.getEndpoint({ id }, ctx)).endpoint!;
    if (streakMs < 1_400) expect(endpoint.status).toBe('enabled');
    else if (streakMs > 1_600) expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
  });
});

describe('disabling', () => {
  it('410 Gone disables the endpoint at once and says why', async () => {
    const id = await endpointAt('/gone');
    receiver.respond('/gone', () => ({ status: 410 }));
    const eventId = await ping(id);
    await settled(eventId);
    expect(receiver.at('/gone')).toHaveLength(1);
    const { endpoint } = await webhooks.client.getEndpoint({ id }, ctx);
    expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    expect(endpoint!.disabledAt).toBeDefined();
    await expect(webhooks.client.sendPing({ endpointId: id }, ctx)).rejects.toMatchObject({ code: 'endpoint_disabled' });
    // The merchant is told, through the outbox, once.
    expect(await alertsOf(id)).toEqual([
      { subject: `webhooks.endpoint.disabled.${id}`, type: 'endpoint.disabled', disabledReason: 'gone' },
    ]);
  });

  it('an endpoint failing longer than the threshold is disabled when a delivery runs out of attempts', async () => {
    const id = await endpointAt('/down');
    receiver.respond('/down', () => ({ status: 500 }));
    const first = await ping(id);
    await settled(first);
    const afterFirst = (await webhooks.client.getEndpoint({ id }, ctx)).endpoint!;
    expect(afterFirst.status).toBe('enabled');
    expect(afterFirst.failingSince).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const second = await ping(id);
    await settled(second);
    const { endpoint } = await webhooks.client.getEndpoint({ id }, ctx);
    expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    expect((await webhooks.client.listEndpoints({}, ctx)).endpoints.find((e) => e.id === id)!.disabledReason).toBe('failing');
    // Failing past WEBHOOKS_FAILING_ALERT_AFTER alerted once (however many attempts failed), then the disabling.
    expect(await alertsOf(id)).toEqual([
      { subject: `webhooks.endpoint.failing.${id}`, type: 'endpoint.failing', disabledReason: '' },
      { subject: `webhooks.endpoint.disabled.${id}`, type: 'endpoint.disabled', disabledReason: 'failing' },
    ]);
    // Enabling clears the reason and the streak.
    receiver.respond('/down', () => ({ status: 200 }));
    const enabled = await webhooks.client.enableEndpoint({ id }, ctx);
    expect(enabled.endpoint!.disabledReason).toBeUndefined();
    expect(enabled.endpoint!.failingSince).toBeUndefined();
  });
});

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Most requests the receiver had open at once at `path` (from the `from`-th on), each open from its arrival for `heldMs`. */
function mostAtOnce(path: string, heldMs: number, from = 0): number {
  const arrivals = receiver
    .at(path)
    .slice(from)
    .map((d) => d.receivedAt);
  return Math.max(...arrivals.map((t) => arrivals.filter((other) => other <= t && other + heldMs > t).length));
}

describe('parallel delivery (slots follow the health of the endpoint, docs/adr/0107)', () => {
  it('a healthy endpoint of a busy shop gets up to WEBHOOKS_CONCURRENCY_PER_ENDPOINT (16) attempts at once', async () => {
    const busy = await endpointAt('/shop');
    receiver.respond('/shop', () => ({ status: 200, delayMs: 400 }));
    const events = await Promise.all(Array.from({ length: 24 }, () => ping(busy)));
    await Promise.all(events.map(settled));
    // 4 at a time (the old fixed limit) would take 6 rounds of 400 ms; 16 take two.
    expect(mostAtOnce('/shop', 400)).toBeGreaterThan(4);
    expect(mostAtOnce('/shop', 400)).toBeLessThanOrEqual(16);
    expect(new Set(receiver.at('/shop').map((d) => d.body.id)).size).toBe(24);
  });

  it('a failing endpoint gets 2 (WEBHOOKS_CONCURRENCY_PER_FAILING_ENDPOINT), and a fast endpoint is served meanwhile', async () => {
    const slow = await endpointAt('/slow');
    const fast = await endpointAt('/fast');
    // The first answer fails at once (the endpoint is failing from then on); every later one after 300 ms.
    let answered = 0;
    receiver.respond('/slow', () => (answered++ === 0 ? { status: 503 } : { status: 503, delayMs: 300 }));
    await ping(slow);
    await until(async () => (await webhooks.client.getEndpoint({ id: slow }, ctx)).endpoint!.failingSince !== undefined);
    const before = receiver.at('/slow').length;
    const slowEvents = await Promise.all(Array.from({ length: 6 }, () => ping(slow)));
    await receiver.waitFor(() => receiver.at('/slow').length > before);
    const sentFast = Date.now();
    const fastEvent = await ping(fast);
    await receiver.waitFor((all) => all.some((d) => d.body.id === fastEvent));
    expect(receiver.at('/fast')[0]!.receivedAt - sentFast).toBeLessThan(300);
    await Promise.all(slowEvents.map(settled));
    // Every answer but the very first is held 300 ms: at most 2 of them were open at any moment.
    expect(mostAtOnce('/slow', 300, 1)).toBeLessThanOrEqual(2);
    expect(receiver.at('/slow').length - before).toBeGreaterThanOrEqual(6);
  });
});

describe('retries with a long poll', () => {
  it("are sent when due, woken by the worker's own alarm rather than the next poll (a minute here)", async () => {
    const slowPoll = await startWebhooksStack(logger, testNatsPrefix('webhooks_alarm'), { WEBHOOKS_POLL_INTERVAL: '60s' });
    try {
      const { endpoint, secret } = await slowPoll.client.createEndpoint({ url: receiver.url('/alarm') }, ctx);
      receiver.trust(secret);
      receiver.respond('/alarm', (_d, nth) => (nth <= 2 ? { status: 500 } : { status: 204 }));
      const eventId = (await slowPoll.client.sendPing({ endpointId: endpoint!.id }, ctx)).event!.id;
      // Two retries 100 ms apart: well within 20 s by alarm, two minutes by poll.
      const deadline = Date.now() + 20_000;
      while (receiver.at('/alarm').length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(receiver.at('/alarm').map((d) => d.body.id)).toEqual([eventId, eventId, eventId]);
    } finally {
      await slowPoll.stop();
    }
  });
});
