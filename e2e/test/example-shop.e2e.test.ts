// Risk covered (issue 44): the example shop teaching an Idempotency-Key that repeats after a restart
// (a new order sent to the previous run's paid session: the buyer sees "Payment received" for an order
// the shop thinks unpaid), an event handled again after a restart, or a shop that works only inside
// this repository. In-process restarts against a real platform (gateway, checkout, webhooks;
// PostgreSQL, NATS, HTTP), then the shop copied out of the workspace with the packed SDK installed by
// npm, run and restarted as a real process.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient, forwardEvent, newSigningSecret, type HostedCheckout, type WebhookEvent } from '@hosted-checkout/sdk';
import { createShop, type Shop } from 'example-shop';
import { freePort } from '@hc/test-kit';
import { eventually } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

const run = promisify(execFile);
const SDK_DIR = fileURLToPath(new URL('../../packages/sdk', import.meta.url));
const SHOP_DIR = fileURLToPath(new URL('../../examples/shop', import.meta.url));
const MINUTES = 60_000;

let platform: Platform;
let merchant: TestMerchant;
let client: HostedCheckout;
let workDir: string;
const secret = newSigningSecret();
const servers: Server[] = [];

beforeAll(async () => {
  platform = await startPlatform({ webhooks: true });
  merchant = await platform.merchant();
  client = createClient({ apiKey: merchant.testKey, baseUrl: platform.url });
  workDir = await mkdtemp(join(tmpdir(), 'hc-example-shop-'));
}, 120_000);

afterAll(async () => {
  for (const server of servers) server.close().closeAllConnections();
  await platform?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

interface RunningShop {
  readonly shop: Shop;
  readonly url: string;
  readonly server: Server;
}

async function openShop(dataFile: string): Promise<RunningShop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const shop = createShop({ client, webhookSecret: secret, shopUrl: url, dataFile });
  const server = shop.app.listen(port, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  return { shop, url, server };
}

async function closeShop(running: RunningShop): Promise<void> {
  running.server.close().closeAllConnections();
  await once(running.server, 'close');
}

/** POST /orders as the shop's button does: answers the session the buyer is sent to. */
async function order(shopUrl: string): Promise<string> {
  const response = await fetch(`${shopUrl}/orders`, { method: 'POST', redirect: 'manual' });
  expect(response.status).toBe(303);
  return /\/pay\/([^/?#]+)$/.exec(response.headers.get('location') ?? '')![1]!;
}

async function paidEventOf(paymentId: string): Promise<WebhookEvent> {
  const events = await eventually(
    async () => (await client.events.list({ type: 'payment.paid' }).toArray()) as WebhookEvent[],
    (list) => list.some((event) => event.data.payment?.id === paymentId),
    10_000,
  );
  return events.find((event) => event.data.payment?.id === paymentId)!;
}

describe('the example shop across restarts', () => {
  it('gives the order after a restart its own session, keeps fulfilled orders, and never handles an event twice', async () => {
    const dataFile = join(workDir, 'in-process', 'shop.json');
    const first = await openShop(dataFile);
    const firstSession = await order(first.url);
    await client.checkoutSessions.start(firstSession, { customer_email: 'ann@example.com' });
    await client.payments.simulate(firstSession, 'paid');
    const paid = await paidEventOf(firstSession);
    expect((await forwardEvent(paid, { forwardTo: `${first.url}/webhooks`, secret, signal: AbortSignal.timeout(10_000) })).status).toBe(
      200,
    );
    expect(first.shop.orders.get('ORD-1')).toMatchObject({ status: 'paid', fulfilments: 1, paymentId: firstSession });
    await closeShop(first);

    const second = await openShop(dataFile);
    expect(second.shop.orders.get('ORD-1')).toMatchObject({ status: 'paid', fulfilments: 1 });
    const secondSession = await order(second.url);
    expect(secondSession).not.toBe(firstSession);
    expect(second.shop.orders.get('ORD-2')).toMatchObject({ paymentId: secondSession, status: 'awaiting_payment' });
    expect((await client.payments.retrieve(secondSession)).status).not.toBe('paid');
    // The platform redelivers the event handled before the restart: acknowledged, nothing shipped again.
    const again = await fetch(`${second.url}/orders.json`);
    expect(((await again.json()) as { events: { id: string }[] }).events.map((event) => event.id)).toContain(paid.id);
    expect((await forwardEvent(paid, { forwardTo: `${second.url}/webhooks`, secret, signal: AbortSignal.timeout(10_000) })).status).toBe(
      200,
    );
    expect(second.shop.orders.get('ORD-1')!.fulfilments).toBe(1);
    await closeShop(second);

    // A second shop on the same account (or this one with its file wiped) counts from ORD-1 again:
    // its keys still differ from the first shop's.
    const fresh = await openShop(join(workDir, 'wiped', 'shop.json'));
    const freshSession = await order(fresh.url);
    expect(fresh.shop.orders.has('ORD-1')).toBe(true);
    expect([firstSession, secondSession]).not.toContain(freshSession);
    await closeShop(fresh);
  }, 60_000);
});

/** Runs a command; on failure the error carries its output (shown by jest). */
async function sh(file: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await run(file, args, { cwd, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

async function startShopProcess(dir: string, port: number): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: dir,
    // A clean environment: nothing of this repository's (NODE_OPTIONS, PATH to its tools) leaks in.
    env: {
      PATH: '/usr/bin:/bin',
      HOME: dir,
      PORT: String(port),
      TEST_SECRET_KEY: merchant.testKey,
      GATEWAY_URL: platform.url,
      WEBHOOK_SECRET: secret,
    },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const started = await eventually(
    async () => output,
    (text) => text.includes('example-shop: http') || child.exitCode !== null,
    30_000,
  );
  if (!started.includes('example-shop: http')) throw new Error(`the shop did not start:\n${output}`);
  return child;
}

describe('the example shop copied out of the workspace', () => {
  it(
    'installs the packed SDK (not workspace:*), runs, and after a restart gives the new order its own session',
    async () => {
      await sh('pnpm', ['pack', '--pack-destination', workDir], SDK_DIR);
      const tarball = join(
        workDir,
        (await readdir(workDir)).find((name) => name.endsWith('.tgz'))!,
      );
      const dir = join(workDir, 'shop');
      await cp(join(SHOP_DIR, 'src'), join(dir, 'src'), { recursive: true });
      const manifest = JSON.parse(await readFile(join(SHOP_DIR, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      // What examples/shop/README.md tells a merchant to do with the copy: the SDK from its tarball.
      manifest.dependencies['@hosted-checkout/sdk'] = `file:${tarball}`;
      delete manifest.devDependencies;
      await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
      await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], dir);

      const port = await freePort();
      const sessions: string[] = [];
      for (let run = 0; run < 2; run += 1) {
        const shop = await startShopProcess(dir, port);
        try {
          sessions.push(await order(`http://127.0.0.1:${port}`));
        } finally {
          shop.kill('SIGTERM');
          if (shop.exitCode === null) await once(shop, 'exit');
        }
      }
      expect(sessions[1]).not.toBe(sessions[0]);
      const kept = JSON.parse(await readFile(join(dir, 'shop-data.json'), 'utf8')) as { orders: { id: string; paymentId: string }[] };
      expect(kept.orders.map((o) => [o.id, o.paymentId])).toEqual([
        ['ORD-1', sessions[0]],
        ['ORD-2', sessions[1]],
      ]);
    },
    10 * MINUTES,
  );
});
