// Risk covered: a merchant using webhook endpoint URLs to make the platform send requests into its
// own network (SSRF) — loopback written every way a URL parser accepts (127.1, 2130706433,
// 0x7f000001, octal, [::1], IPv4-mapped and IPv4-compatible IPv6, 0.0.0.0, unicode digits), names
// that resolve to private, loopback or metadata addresses (localhost, a name answering 10/8 or
// ::ffff:127.0.0.1, one public and one private answer, a name rebinding to loopback after
// registration), the platform's own ports (gateway, gRPC services, notices, emulator, PostgreSQL,
// NATS, and the defaults of ./scripts/start), and redirects from an endpoint to such places.
// With production settings (WEBHOOKS_ALLOW_PRIVATE_TARGETS=false) each is refused at registration
// and at every delivery attempt, and a local listener never sees a connection; with the local
// development switch on, redirects are still never followed. docs/security.md, "SSRF".
import { once } from 'node:events';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { WebhooksService } from '@hc/proto/webhooks/v1';
import { createTestDatabase, eventually, TEST_SECRETS_ENCRYPTION_KEYS, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import {
  loadWebhooksConfig,
  startWebhooksService,
  WEBHOOKS_MIGRATIONS_DIR,
  type HostResolver,
  type RunningWebhooksService,
} from '@hc/webhooks';
import { lookup } from 'node:dns/promises';
import { startPlatform, type Platform } from './platform-harness.ts';

type WebhooksClient = ServiceClient<typeof WebhooksService>;

let platform: Platform;
/** The webhooks service with production settings: private targets refused. */
let production: RunningWebhooksService;
let productionDb: TestDatabase;
let prod: WebhooksClient;
/** The platform's own webhooks service, with the local development switch on (private targets allowed). */
let dev: WebhooksClient;
/** A listener on this machine that counts every connection made to it (and answers 204 if asked). */
let canary: Server;
let canaryPort = 0;
const connections: string[] = [];
/** An endpoint on this machine that answers every delivery with a redirect to where its path says. */
let redirector: HttpServer;
let redirectorUrl = '';

const test: CallContext = { accountId: 'acct_ssrf', livemode: false, requestId: 'req_ssrf' };
const live: CallContext = { ...test, livemode: true };

/**
 * Names under hooks.test: fixed answers, and rebind-N names that answer a public address the first
 * time (registration) and afterwards what REBIND[N] says (every delivery attempt).
 */
const NAMES: Record<string, string[]> = {
  'loopback.hooks.test': ['127.0.0.1'],
  'loopback6.hooks.test': ['::1'],
  'mapped.hooks.test': ['::ffff:127.0.0.1'],
  'compat.hooks.test': ['::7f00:1'],
  'private.hooks.test': ['10.0.0.5'],
  'unspecified.hooks.test': ['0.0.0.0'],
  'metadata.hooks.test': ['169.254.169.254'],
  'mixed.hooks.test': ['8.8.8.8', '127.0.0.1'],
  'public.hooks.test': ['8.8.8.8'],
};
const REBIND = ['127.0.0.1', '::1', '::ffff:127.0.0.1', '::7f00:1', '0.0.0.0', '10.0.0.5', '169.254.169.254', '192.168.1.1'];
const rebindLookups = new Map<string, number>();
const resolver: HostResolver = async (host) => {
  const rebind = /^rebind-(\d+)\.hooks\.test$/.exec(host);
  if (rebind) {
    const seen = rebindLookups.get(host) ?? 0;
    rebindLookups.set(host, seen + 1);
    const address = seen === 0 ? '8.8.4.4' : REBIND[Number(rebind[1])]!;
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  }
  const fixed = NAMES[host];
  if (fixed) return fixed.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  // Anything else as the machine resolves it (localhost, …), as in production.
  return lookup(host, { all: true, verbatim: true });
};

beforeAll(async () => {
  canary = createServer((socket) => {
    connections.push(`${socket.remoteAddress}:${socket.remotePort}`);
    socket.once('data', () => socket.end('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n'));
    socket.on('error', () => undefined);
  });
  canary.listen(0, '0.0.0.0');
  await once(canary, 'listening');
  canaryPort = (canary.address() as AddressInfo).port;
  redirector = createHttpServer((req, res) => {
    const [, status, ...rest] = (req.url ?? '/').split('/');
    req.resume();
    res.writeHead(Number(status), { location: decodeURIComponent(rest.join('/')) }).end();
  });
  redirector.listen(0, '127.0.0.1');
  await once(redirector, 'listening');
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;

  platform = await startPlatform({ webhooks: true });
  productionDb = await createTestDatabase('webhooks', WEBHOOKS_MIGRATIONS_DIR);
  production = await startWebhooksService(
    loadWebhooksConfig({
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'false',
      WEBHOOKS_DATABASE_URL: productionDb.url,
      WEBHOOKS_GRPC_ADDRESS: '127.0.0.1:0',
      NATS_URL: testNatsUrl(),
      NATS_SUBJECT_PREFIX: testNatsPrefix('security_ssrf'),
      WEBHOOKS_RETRY_SCHEDULE: '0s,100ms',
      WEBHOOKS_DELIVERY_TIMEOUT: '1s',
      WEBHOOKS_POLL_INTERVAL: '50ms',
      SECRETS_ENCRYPTION_KEYS: TEST_SECRETS_ENCRYPTION_KEYS,
      LOG_LEVEL: 'silent',
    }),
    createLogger('ssrf', { level: 'silent' }),
    { resolver },
  );
  prod = createServiceClient(WebhooksService, production.address);
  dev = createServiceClient(WebhooksService, platform.webhooks!.address);
}, 120_000);

afterAll(async () => {
  prod?.close();
  dev?.close();
  await production?.stop();
  await productionDb?.drop();
  await platform?.stop();
  canary?.close();
  redirector?.close();
});

const portOf = (address: string) => address.slice(address.lastIndexOf(':') + 1);

/** Loopback (and the unspecified address, which reaches this machine) as URLs write it. */
const loopbackSpellings = (port: number | string): string[] => [
  `127.0.0.1:${port}`,
  `127.1:${port}`,
  `2130706433:${port}`,
  `0x7f000001:${port}`,
  `0x7f.1:${port}`,
  `0177.0.0.1:${port}`,
  `017700000001:${port}`,
  `127.255.255.254:${port}`,
  `①②⑦.0.0.1:${port}`,
  `[::1]:${port}`,
  `[0:0:0:0:0:0:0:1]:${port}`,
  `[::ffff:127.0.0.1]:${port}`,
  `[0:0:0:0:0:ffff:7f00:1]:${port}`,
  `[::127.0.0.1]:${port}`,
  `[::ffff:0:7f00:1]:${port}`,
  `[64:ff9b::127.0.0.1]:${port}`,
  `0.0.0.0:${port}`,
  `0:${port}`,
  `[::]:${port}`,
  `localhost:${port}`,
  `localhost.:${port}`,
  `LOCALHOST:${port}`,
];

const namedTargets = (port: number): string[] => [
  ...Object.keys(NAMES)
    .filter((name) => name !== 'public.hooks.test')
    .map((name) => `${name}:${port}`),
];

describe('registration, with production settings (WEBHOOKS_ALLOW_PRIVATE_TARGETS=false)', () => {
  it.each([...loopbackSpellings('CANARY'), ...namedTargets(0).map((t) => t.replace(':0', ':CANARY'))])(
    'refuses http://%s in Test mode and https:// in Live, and as a change of a public endpoint',
    async (target) => {
      const host = target.replace('CANARY', String(canaryPort));
      for (const [url, scope] of [
        [`http://${host}/hooks`, test],
        [`https://${host}/hooks`, live],
      ] as const) {
        await expect(prod.createEndpoint({ url }, scope)).rejects.toMatchObject({ code: 'invalid_url', field: 'url' });
      }
      const { endpoint } = await prod.createEndpoint({ url: 'https://public.hooks.test/hooks' }, live);
      await expect(prod.updateEndpoint({ id: endpoint!.id, url: `https://${host}/hooks` }, live)).rejects.toMatchObject({
        code: 'invalid_url',
      });
      expect((await prod.getEndpoint({ id: endpoint!.id }, live)).endpoint!.url).toBe('https://public.hooks.test/hooks');
      await prod.deleteEndpoint({ id: endpoint!.id }, live);
      expect(connections).toEqual([]);
    },
  );

  it("refuses the platform's own listeners: every port this run's services listen on, and ./scripts/start's defaults", async () => {
    const running = [
      new URL(platform.url).port,
      portOf(platform.stack.checkout.address),
      portOf(platform.stack.settlement.address),
      portOf(platform.stack.settlement.noticesAddress),
      portOf(platform.customers.address),
      portOf(platform.webhooks!.address),
      portOf(production.address),
      portOf(platform.accountsAddress),
      new URL(platform.stack.emulator.url).port,
      new URL(testNatsUrl()).port || '4222',
    ];
    // ./scripts/start: router, gateway, pages, dashboard; emulator and notices; gRPC 50051–50056; PostgreSQL; NATS.
    const defaults = ['8080', '8081', '8082', '8083', '8090', '8091', '50051', '50052', '50053', '50054', '50055', '50056', '5432', '4222'];
    const refused: string[] = [];
    for (const port of [...new Set([...running, ...defaults])]) {
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `loopback.hooks.test:${port}`]) {
        const outcome = await prod.createEndpoint({ url: `http://${host}/` }, test).then(
          () => 'accepted',
          (error: { code?: string }) => error.code,
        );
        if (outcome === 'invalid_url') refused.push(host);
        else throw new Error(`http://${host}/ was ${outcome}`);
      }
    }
    expect(refused.length).toBeGreaterThanOrEqual(4 * 14);
  });

  it('accepts an ordinary public address (the policy is an allow-list, not a ban on everything)', async () => {
    const { endpoint } = await prod.createEndpoint({ url: 'https://public.hooks.test/hooks' }, live);
    expect(endpoint!.url).toBe('https://public.hooks.test/hooks');
    // Deleted at once: nothing is ever sent to a real public address from a test.
    await prod.deleteEndpoint({ id: endpoint!.id }, live);
  });
});

describe('delivery, with production settings: the name is checked again at every attempt (DNS rebinding)', () => {
  it.each(REBIND.map((address, index) => [address, index] as const))(
    'a name public at registration that now answers %s is refused at each attempt, without a connection',
    async (address, index) => {
      const { endpoint } = await prod.createEndpoint({ url: `http://rebind-${index}.hooks.test:${canaryPort}/hooks` }, test);
      const { event } = await prod.sendPing({ endpointId: endpoint!.id }, test);
      const attempts = await eventually(
        async () => (await prod.listDeliveryAttempts({ eventId: event!.id }, test)).attempts,
        (list) => list.length === 2,
        20_000,
      );
      for (const attempt of attempts) {
        expect(attempt).toMatchObject({ succeeded: false, error: expect.stringMatching(/^refused: /) });
        expect(attempt.statusCode).toBeUndefined();
      }
      expect(connections).toEqual([]);
    },
  );
});

describe('redirects, even with the local development switch on (private targets allowed)', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i from the endpoint is never followed, to this machine or to the metadata address',
    async (status) => {
      for (const target of [
        `http://127.0.0.1:${canaryPort}/stolen`,
        'http://169.254.169.254/latest/meta-data/',
        `${platform.url}/v1/payments`,
      ]) {
        const url = `${redirectorUrl}/${status}/${encodeURIComponent(target)}`;
        const { endpoint } = await dev.createEndpoint({ url }, test);
        const { event } = await dev.sendPing({ endpointId: endpoint!.id }, test);
        const attempts = await eventually(
          async () => (await dev.listDeliveryAttempts({ eventId: event!.id }, test)).attempts,
          (list) => list.length === 3,
          20_000,
        );
        expect(attempts.map((a) => [a.statusCode, a.succeeded])).toEqual([
          [status, false],
          [status, false],
          [status, false],
        ]);
        await dev.deleteEndpoint({ id: endpoint!.id }, test);
      }
      expect(connections).toEqual([]);
    },
  );
});
