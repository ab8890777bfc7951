// Risk covered: a ping or a resend to one endpoint that is deleted between the request's check and
// its write answered `endpoint_disabled`, which tells the merchant the endpoint still exists; a
// request made a moment later answers `404 not_found`. Disabled meanwhile, it stays `endpoint_disabled`.
// And a resend whose event the log's purge removes in that moment answers `not_found`, not a 500.
// Real PostgreSQL and the service's own dependencies; the removal runs right before the write.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { testNatsPrefix } from '@hc/test-kit';
import type { WebhooksDependencies } from '../src/use-cases/dependencies.ts';
import { resendEvent } from '../src/use-cases/resend-event.ts';
import { sendPing } from '../src/use-cases/send-ping.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-test', { level: 'silent' });
const ctx = testScope('acct_removed_meanwhile');
const scope = { accountId: ctx.accountId, livemode: ctx.livemode };
let webhooks: WebhooksStack;

beforeAll(async () => {
  webhooks = await startWebhooksStack(logger, testNatsPrefix('wh-removed'));
});
afterAll(async () => {
  await webhooks.stop();
});

async function newEndpoint(): Promise<string> {
  // Unroutable on purpose: only what is recorded matters here.
  const created = await webhooks.client.createEndpoint({ url: 'https://127.0.0.1:9/hook' }, ctx);
  return created.endpoint!.id;
}

type Removal = 'deleted' | 'disabled';

/** The service's dependencies, with `id` removed just before the ping's or the resend's write. */
function removingBeforeWrite(id: string, removal: Removal): WebhooksDependencies {
  const deps = webhooks.service.deps;
  const remove = () =>
    removal === 'deleted' ? deps.endpoints.softDelete(id, new Date()) : deps.endpoints.setStatus(id, 'disabled', new Date());
  const events = Object.create(deps.events) as typeof deps.events;
  events.recordPing = async (...args) => {
    await remove();
    return deps.events.recordPing(...args);
  };
  events.resend = async (...args) => {
    await remove();
    return deps.events.resend(...args);
  };
  return { ...deps, events };
}

describe.each([
  ['deleted', 'not_found'],
  ['disabled', 'endpoint_disabled'],
] as const)('an endpoint %s between the check and the write', (removal, code) => {
  it(`refuses a ping with ${code}, recording nothing for it`, async () => {
    const id = await newEndpoint();
    await expect(sendPing(removingBeforeWrite(id, removal), scope, id)).rejects.toMatchObject({ code });
    expect(await webhooks.prisma.webhookDelivery.count({ where: { endpointId: id } })).toBe(0);
  });

  it(`refuses a resend to it with ${code}, queueing nothing`, async () => {
    const id = await newEndpoint();
    const ping = await sendPing(webhooks.service.deps, scope, id);
    await expect(resendEvent(removingBeforeWrite(id, removal), scope, ping.id, id)).rejects.toMatchObject({ code });
    expect(await webhooks.prisma.webhookDelivery.count({ where: { endpointId: id } })).toBe(1); // the ping's own
  });
});

it('refuses a resend whose event the log purge removed between the check and the write with not_found', async () => {
  const id = await newEndpoint();
  const ping = await sendPing(webhooks.service.deps, scope, id);
  const deps = webhooks.service.deps;
  const events = Object.create(deps.events) as typeof deps.events;
  events.resend = async (...args) => {
    // What the purge deletes for an event, as it does (store/delivery-log-retention.ts): one transaction
    // that locks the event first. The stack's delivery worker may be trying the ping right now (to an
    // unroutable address): its attempt's row refers to the event, so it waits for this lock and then
    // finds the event gone, instead of adding a row between the deletes (a CI run of 30 Nov failed on
    // the foreign key, P2003, when the deletes were three statements of their own).
    await webhooks.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM webhook_events WHERE id = ${ping.id} FOR UPDATE`;
        await tx.deliveryAttempt.deleteMany({ where: { eventId: ping.id } });
        await tx.webhookDelivery.deleteMany({ where: { eventId: ping.id } });
        await tx.webhookEvent.delete({ where: { id: ping.id } });
      },
      { maxWait: 10_000, timeout: 20_000 },
    );
    return deps.events.resend(...args);
  };
  await expect(resendEvent({ ...deps, events }, scope, ping.id, id)).rejects.toMatchObject({ code: 'not_found', field: 'event_id' });
  expect(await webhooks.prisma.webhookDelivery.count({ where: { endpointId: id } })).toBe(0);
});
