// Risk covered (issue 49 item 3, ADR 0087): the endpoint checker leaving traces in the account's
// delivery records (events, deliveries, attempts, alerts, the endpoint's health), signing with
// anything but the endpoint's own secrets (both during a rotation), going around the SSRF guard of real
// deliveries, checking a Live endpoint, or running without its per-account budget.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { testNatsPrefix } from '@hc/test-kit';
import { systemResolver, type HostResolver } from '../src/adapters/target-resolver.ts';
import { CHECKS_PER_MINUTE } from '../src/store/check-limits.ts';
import { WebhookReceiver } from './support/receiver.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-endpoint-check-test', { level: 'silent' });
let webhooks: WebhooksStack;
let receiver: WebhookReceiver;
let clockOffsetMs = 0;

// meta.check.test: public at registration, the cloud metadata address afterwards (refused even where
// private targets are allowed, as in this suite).
let metaLookups = 0;
const resolver: HostResolver = async (host) => {
  if (host === 'meta.check.test') return [{ address: metaLookups++ === 0 ? '8.8.4.4' : '169.254.169.254', family: 4 }];
  return systemResolver(host);
};

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  // Verified with the library, as the guide says: 2xx when a trusted secret signed it in time, else 400.
  receiver.respond('/hooks', (delivery) => ({ status: delivery.verifiedBy.length > 0 ? 200 : 400 }));
  receiver.respond('/broken', () => ({ status: 500 }));
  webhooks = await startWebhooksStack(
    logger,
    testNatsPrefix('webhooks_check'),
    { WEBHOOKS_DELIVERY_TIMEOUT: '3s', WEBHOOKS_LEASE: '5s' },
    { resolver, now: () => new Date(Date.now() + clockOffsetMs) },
  );
});

afterAll(async () => {
  await webhooks?.stop();
  await receiver?.stop();
});

async function endpointAt(accountId: string, path: string): Promise<{ id: string; secret: string }> {
  const created = await webhooks.client.createEndpoint({ url: receiver.url(path) }, testScope(accountId));
  return { id: created.endpoint!.id, secret: created.secret };
}

it('leaves no event, delivery, attempt, alert or endpoint health behind, passing or failing', async () => {
  const good = await endpointAt('acct_CheckStore', '/hooks');
  const broken = await endpointAt('acct_CheckStore', '/broken');
  receiver.trust(good.secret);
  const passed = await webhooks.client.checkEndpoint({ endpointId: good.id }, testScope('acct_CheckStore'));
  const failed = await webhooks.client.checkEndpoint({ endpointId: broken.id }, testScope('acct_CheckStore'));
  expect(passed.checks.map((c) => c.passed)).toEqual([true, true, true, true, true, true]);
  expect(failed.checks.filter((c) => c.passed).map((c) => c.id)).toEqual([]);
  const { prisma } = webhooks;
  expect(await prisma.webhookEvent.count()).toBe(0);
  expect(await prisma.webhookDelivery.count()).toBe(0);
  expect(await prisma.deliveryAttempt.count()).toBe(0);
  expect(await prisma.outboxMessage.count()).toBe(0);
  // A real failing attempt would have set failing_since; a check is not an attempt.
  const health = await prisma.webhookEndpoint.findMany({ select: { failingSince: true, lastSuccessAt: true } });
  expect(health).toEqual([
    { failingSince: null, lastSuccessAt: null },
    { failingSince: null, lastSuccessAt: null },
  ]);
});

it('signs with both secrets during a rotation, as real deliveries: a receiver still on the old one passes', async () => {
  const { id, secret: oldSecret } = await endpointAt('acct_CheckRotate', '/hooks');
  receiver.trust(oldSecret);
  const rotated = await webhooks.client.rotateEndpointSecret({ id }, testScope('acct_CheckRotate'));
  const before = receiver.deliveries.length;
  const report = await webhooks.client.checkEndpoint({ endpointId: id }, testScope('acct_CheckRotate'));
  expect(report.checks.every((c) => c.passed)).toBe(true);
  const valid = receiver.deliveries.slice(before).find((d) => d.body.type === 'payment.started')!;
  expect(String(valid.headers['webhook-signature']).split(' ')).toHaveLength(2);
  expect(valid.verifiedBy).toEqual([oldSecret]);
  expect(rotated.secret).not.toBe(oldSecret);
});

it('goes through the SSRF guard of real deliveries: a name now resolving to the metadata address gets nothing', async () => {
  const created = await webhooks.client.createEndpoint({ url: 'http://meta.check.test/hooks' }, testScope('acct_CheckSsrf'));
  const before = receiver.deliveries.length;
  const report = await webhooks.client.checkEndpoint({ endpointId: created.endpoint!.id }, testScope('acct_CheckSsrf'));
  for (const check of report.checks) {
    expect(check).toMatchObject({ passed: false, error: 'refused' });
    expect(check.statusCode).toBeUndefined();
    expect(check.explanation).toMatch(/169\.254\.169\.254, a metadata address/);
  }
  expect(receiver.deliveries.length).toBe(before);
});

it('checks a disabled endpoint too (how a merchant knows it is fixed before enabling it), and leaves it disabled', async () => {
  const { id, secret } = await endpointAt('acct_CheckDisabled', '/hooks');
  receiver.trust(secret);
  await webhooks.client.disableEndpoint({ id }, testScope('acct_CheckDisabled'));
  const report = await webhooks.client.checkEndpoint({ endpointId: id }, testScope('acct_CheckDisabled'));
  expect(report.checks.every((c) => c.passed)).toBe(true);
  const { endpoint } = await webhooks.client.getEndpoint({ id }, testScope('acct_CheckDisabled'));
  expect(endpoint?.status).toBe('disabled');
});

describe('refuses', () => {
  it('a Live endpoint, test_mode_only', async () => {
    const live = testScope('acct_CheckLive', true);
    const created = await webhooks.client.createEndpoint({ url: receiver.url('/hooks').replace('http:', 'https:') }, live);
    await expect(webhooks.client.checkEndpoint({ endpointId: created.endpoint!.id }, live)).rejects.toMatchObject({
      code: 'test_mode_only',
    });
  });

  it(`more than ${CHECKS_PER_MINUTE} checks a minute per account, until the minute is over`, async () => {
    const { id, secret } = await endpointAt('acct_CheckBudget', '/hooks');
    receiver.trust(secret);
    const scope = testScope('acct_CheckBudget');
    for (let i = 0; i < CHECKS_PER_MINUTE; i += 1) await webhooks.client.checkEndpoint({ endpointId: id }, scope);
    const sent = receiver.deliveries.length;
    await expect(webhooks.client.checkEndpoint({ endpointId: id }, scope)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(receiver.deliveries.length).toBe(sent);
    // Another account has its own budget.
    const other = await endpointAt('acct_CheckBudget2', '/hooks');
    receiver.trust(other.secret);
    await expect(webhooks.client.checkEndpoint({ endpointId: other.id }, testScope('acct_CheckBudget2'))).resolves.toBeDefined();
    clockOffsetMs += 61_000;
    await expect(webhooks.client.checkEndpoint({ endpointId: id }, scope)).resolves.toBeDefined();
  }, 120_000);
});
