// Risk covered: webhooks used to reach our own network (SSRF) — with private targets NOT allowed
// (production), registration refuses loopback, private, link-local and metadata addresses, names
// resolving to them, and a name that resolves privately only at delivery time is refused then,
// without a connection.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@hc/logging';
import { testNatsPrefix } from '@hc/test-kit';
import { systemResolver, type HostResolver } from '../src/adapters/target-resolver.ts';
import { WebhookReceiver } from './support/receiver.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-ssrf-test', { level: 'silent' });
const live = testScope('acct_S', true);
const test = testScope('acct_S', false);
let webhooks: WebhooksStack;
let receiver: WebhookReceiver;

// public.hooks.test: a public address (only ever resolved, never connected to).
// rebind.hooks.test: public at registration, loopback afterwards (DNS rebinding).
let rebindLookups = 0;
const resolver: HostResolver = async (host) => {
  if (host === 'public.hooks.test') return [{ address: '8.8.8.8', family: 4 }];
  if (host === 'mixed.hooks.test')
    return [
      { address: '8.8.8.8', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
  if (host === 'rebind.hooks.test') return [{ address: rebindLookups++ === 0 ? '8.8.4.4' : '127.0.0.1', family: 4 }];
  return systemResolver(host);
};

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  webhooks = await startWebhooksStack(logger, testNatsPrefix('webhooks_ssrf'), { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false' }, { resolver });
});

afterAll(async () => {
  await webhooks.stop();
  await receiver.stop();
});

describe('at registration', () => {
  it.each([
    ['https://127.0.0.1/hooks', /loopback/],
    ['https://[::1]/hooks', /loopback/],
    ['https://10.1.2.3/hooks', /private/],
    ['https://192.168.0.10/hooks', /private/],
    ['https://100.64.0.1/hooks', /carrierGradeNat/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://[fd00:ec2::254]/', /metadata/],
    ['https://[fe80::1]/', /linkLocal/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://localhost/hooks', /loopback/],
    ['https://mixed.hooks.test/hooks', /10\.0\.0\.7, a private address/],
    ['https://does-not-exist.invalid/hooks', /does not resolve/],
  ])('refuses %s in Live', async (url, message) => {
    await expect(webhooks.client.createEndpoint({ url }, live)).rejects.toMatchObject({
      code: 'invalid_url',
      field: 'url',
      message: expect.stringMatching(message),
    });
  });

  it('refuses plain http in Live, and private targets in Test mode too while the switch is off', async () => {
    await expect(webhooks.client.createEndpoint({ url: 'http://public.hooks.test/hooks' }, live)).rejects.toMatchObject({
      code: 'invalid_url',
    });
    await expect(webhooks.client.createEndpoint({ url: receiver.url('/local') }, test)).rejects.toMatchObject({
      code: 'invalid_url',
      message: expect.stringMatching(/loopback/),
    });
    await expect(webhooks.client.updateEndpoint({ id: 'we_x', url: 'https://127.0.0.1/' }, live)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('accepts a public host, and refuses changing it to a private one', async () => {
    const { endpoint } = await webhooks.client.createEndpoint({ url: 'https://public.hooks.test/hooks' }, live);
    expect(endpoint!.url).toBe('https://public.hooks.test/hooks');
    await expect(webhooks.client.updateEndpoint({ id: endpoint!.id, url: 'https://10.0.0.1/' }, live)).rejects.toMatchObject({
      code: 'invalid_url',
    });
    // Not sent: deleting it keeps this test from ever connecting to a public address.
    await webhooks.client.deleteEndpoint({ id: endpoint!.id }, live);
  });
});

describe('at delivery', () => {
  it('re-resolves the host and refuses a name that now points to loopback, without connecting', async () => {
    const port = new URL(receiver.url('/')).port;
    const { endpoint } = await webhooks.client.createEndpoint({ url: `http://rebind.hooks.test:${port}/rebound` }, test);
    const { event } = await webhooks.client.sendPing({ endpointId: endpoint!.id }, test);
    const deadline = Date.now() + 10_000;
    let attempts: Awaited<ReturnType<typeof webhooks.client.listDeliveryAttempts>>['attempts'] = [];
    while (attempts.length < 4 && Date.now() < deadline) {
      attempts = (await webhooks.client.listDeliveryAttempts({ eventId: event!.id }, test)).attempts;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(attempts).toHaveLength(4);
    expect(
      attempts.every((a) => !a.succeeded && a.statusCode === undefined && /refused: .*127\.0\.0\.1, a loopback address/.test(a.error!)),
    ).toBe(true);
    expect(receiver.deliveries).toHaveLength(0);
  });
});
