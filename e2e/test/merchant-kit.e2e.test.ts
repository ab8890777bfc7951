// Risk covered (issue 29, "Done when"): a merchant with only a Test key integrating with the SDK,
// `hosted-checkout listen` and the example shop — a Test event not forwarded within a second, a
// forwarded delivery that does not verify, an order fulfilled twice or from a redirect instead of a
// verified payment.paid, a forced expiry that does not send payment.expired or blocks the late payment
// after it, or filters that list the wrong payments. Real gateway, checkout, settlement, webhooks,
// pages (Chromium on the hosted page), PostgreSQL, NATS, HTTP; the listen CLI as a real process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient, forwardEvent, type HostedCheckout, type WebhookEvent } from '@hosted-checkout/sdk';
import { createShop, type Shop } from 'example-shop';
import { createLogger } from '@hc/logging';
import { loadPagesConfig, startPages, type RunningPages } from '@hc/pages';
import { freePort } from '@hc/test-kit';
import { launchChromium, walk } from '@hc/test-kit/browser';
import type { Browser } from 'playwright-core';
import { checkContract } from './contract.ts';
import { eventually } from './e2e-helpers.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';

const CLI = fileURLToPath(new URL('../../packages/sdk/bin/hosted-checkout.ts', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../test-artifacts', import.meta.url));

let platform: Platform;
let pages: RunningPages;
let pagesUrl: string;
let merchant: TestMerchant;
let client: HostedCheckout;
let listen: ChildProcessWithoutNullStreams;
let listenOutput = '';
let secret: string;
let shop: Shop;
let shopServer: Server;
let shopUrl: string;
let browser: Browser;

/** Every SDK answer is checked against the OpenAPI document, as the e2e `request` helper does. */
async function checkedFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const response = await fetch(request);
  await checkContract(request.method, `${url.pathname}${url.search}`, response);
  return response;
}

/** The listen CLI's lines so far that forwarded an event of `type`. */
const forwardedLines = (type: string): string[] => listenOutput.split('\n').filter((line) => line.includes(` ${type} `));

beforeAll(async () => {
  // Session urls point at the pages server, as PUBLIC_BASE_URL does on a real platform.
  const pagesPort = await freePort();
  pagesUrl = `http://127.0.0.1:${pagesPort}`;
  platform = await startPlatform({ webhooks: true, publicBaseUrl: pagesUrl });
  merchant = await platform.merchant();
  pages = await startPages(
    loadPagesConfig({ PAGES_PORT: String(pagesPort), CHECKOUT_GRPC_ADDRESS: platform.stack.checkout.address, LOG_LEVEL: 'silent' }),
    createLogger('pages-test', { level: 'silent' }),
  );
  client = createClient({ apiKey: merchant.testKey, baseUrl: platform.url, fetch: checkedFetch });

  // 1. `hosted-checkout listen --forward-to …` with only the Test key in the environment.
  const port = await freePort();
  shopUrl = `http://127.0.0.1:${port}`;
  listen = spawn(process.execPath, [CLI, 'listen', '--forward-to', `${shopUrl}/webhooks`], {
    // Its kept secret goes to a directory of this test's own, not the user's ~/.config.
    env: {
      ...process.env,
      TEST_SECRET_KEY: merchant.testKey,
      GATEWAY_URL: platform.url,
      XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'hc-kit-')),
    },
  });
  listen.stdout.setEncoding('utf8').on('data', (chunk: string) => (listenOutput += chunk));
  listen.stderr.setEncoding('utf8').on('data', (chunk: string) => (listenOutput += chunk));
  const printed = await eventually(
    async () => /Signing secret[^:]*: (whsec_\S+)/.exec(listenOutput),
    (match) => match !== null,
    20_000,
  );
  if (!printed) throw new Error(`listen printed no secret:\n${listenOutput}`);
  secret = printed[1]!;

  // 2. The shop, configured with the secret listen printed.
  shop = createShop({ client, webhookSecret: secret, shopUrl, dataFile: join(mkdtempSync(join(tmpdir(), 'hc-kit-shop-')), 'shop.json') });
  shopServer = shop.app.listen(port, '127.0.0.1');
  await once(shopServer, 'listening');
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  if (listen && listen.exitCode === null) listen.kill('SIGKILL');
  await browser?.close();
  shopServer?.close();
  await pages?.stop();
  await platform?.stop();
});

describe('a merchant with only a Test key', () => {
  it('pays a shop order on the hosted page; listen forwards payment.started and payment.paid, verified; the order is fulfilled once', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await walk(ARTIFACTS, 'merchant-kit-shop', page, async () => {
        await page.goto(shopUrl);
        await page.getByRole('button', { name: /Buy the Blue mug/ }).click();
        await page.waitForURL(`${pagesUrl}/pay/**`);
        await expect(page.getByText('Test mode', { exact: true }).isVisible()).resolves.toBe(true);
        await page.getByLabel('Email address').fill('ann@example.com');
        await page.getByLabel('Country you are paying from').selectOption({ label: 'Germany' });
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('heading', { name: 'Choose how to pay' }).waitFor();
        await page.getByRole('button', { name: 'Simulate paid' }).click();
        await page.getByRole('heading', { name: 'Payment received' }).waitFor();
        await page.waitForURL(`${shopUrl}/orders/ORD-1`);
      });
    } finally {
      await context.close();
    }
    const order = shop.orders.get('ORD-1')!;
    await eventually(
      async () => order.status,
      (status) => status === 'paid',
      5000,
    );
    expect(order).toMatchObject({ status: 'paid', fulfilments: 1 });
    expect(shop.events.map((event) => event.type)).toEqual(['payment.started', 'payment.paid']);
    expect(shop.events.every((event) => event.paymentId === order.paymentId)).toBe(true);
    await eventually(
      async () => forwardedLines('payment.paid'),
      (lines) => lines.length === 1,
      5000,
    );
    expect(forwardedLines('payment.started')).toEqual([expect.stringMatching(/ evt_\S+ {2}→ 200 \(\d+ ms\)$/)]);
    expect(forwardedLines('payment.paid')).toEqual([expect.stringMatching(/→ 200/)]);
  }, 90_000);

  it('forces expired then a late paid: payment.expired then payment.paid reach the shop; fulfilled once', async () => {
    const created = await fetch(`${shopUrl}/orders`, { method: 'POST', redirect: 'manual' });
    expect(created.status).toBe(303);
    const order = shop.orders.get('ORD-2')!;
    const id = order.paymentId!;
    expect(created.headers.get('location')).toBe(`${pagesUrl}/pay/${id}`);
    await client.checkoutSessions.start(id, { customer_email: 'kim@example.com' });
    await eventually(
      async () => shop.events.filter((e) => e.paymentId === id).length,
      (n) => n === 1,
      5000,
    );

    const timings: Record<string, number> = {};
    for (const outcome of ['expired', 'paid'] as const) {
      const before = performance.now();
      const payment = await client.payments.simulate(id, outcome);
      expect(payment.status).toBe(outcome);
      const type = `payment.${outcome}`;
      await eventually(
        async () => shop.events.some((e) => e.paymentId === id && e.type === type),
        (seen) => seen,
        5000,
      );
      timings[type] = Math.round(performance.now() - before);
    }
    // Printed, not asserted: speed is measured by tools/bench/src/listen-latency.ts, never in a timed
    // test (this bound failed a CI run on a loaded machine at 2.9 s).
    process.stdout.write(`merchant-kit: simulate → verified at the shop: ${JSON.stringify(timings)} ms\n`);
    expect(shop.events.filter((e) => e.paymentId === id).map((e) => e.type)).toEqual([
      'payment.started',
      'payment.expired',
      'payment.paid',
    ]);
    await eventually(
      async () => order.fulfilments,
      (n) => n === 1,
      5000,
    );
    expect(order.status).toBe('paid');
  });

  it('lists payments filtered by status and date with the SDK, paging with for await', async () => {
    const paid = await client.payments.list({ status: 'paid' }).toArray();
    expect(paid.map((p) => p.id).sort()).toEqual([shop.orders.get('ORD-1')!.paymentId, shop.orders.get('ORD-2')!.paymentId].sort());
    const first = paid.at(-1)!;
    const ids: string[] = [];
    for await (const payment of client.payments.list({ 'created[gte]': first.created, 'created[lte]': first.created, limit: 1 }))
      ids.push(payment.id);
    expect(ids).toContain(first.id);
    expect(await client.payments.list({ status: 'expired' }).toArray()).toEqual([]);
  });

  it('the shop acknowledges a redelivered event without fulfilling again, and refuses a body that is not the one signed', async () => {
    const [event] = (await client.events.list({ type: 'payment.paid', limit: 1 }).toArray()) as WebhookEvent[];
    const again = await forwardEvent(event!, { forwardTo: `${shopUrl}/webhooks`, secret, signal: AbortSignal.timeout(5000) });
    expect(again.status).toBe(200);
    expect([...shop.orders.values()].map((order) => order.fulfilments)).toEqual([1, 1]);
    const forged = await forwardEvent(event!, {
      forwardTo: `${shopUrl}/webhooks`,
      secret: 'whsec_' + Buffer.alloc(24).toString('base64'),
      signal: AbortSignal.timeout(5000),
    });
    expect(forged.status).toBe(400);
  });

  it('manages webhook endpoints and payment links from code with the SDK, typed errors included', async () => {
    const endpoint = await client.webhookEndpoints.create({ url: `${shopUrl}/webhooks`, enabled_events: ['payment.paid'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await client.webhookEndpoints.list()).map((e) => e.id)).toEqual([endpoint.id]);
    expect(await client.webhookEndpoints.update(endpoint.id, { status: 'disabled' })).toMatchObject({ status: 'disabled' });
    expect((await client.webhookEndpoints.rotateSecret(endpoint.id)).secret).not.toBe(endpoint.secret);
    expect(await client.webhookEndpoints.delete(endpoint.id)).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    await expect(client.webhookEndpoints.retrieve(endpoint.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });

    const link = await client.paymentLinks.create({ amount: '30', currency: 'EUR', description: 'Invoice 12', customer_name: 'Kim' });
    expect(link).toMatchObject({ object: 'payment_link', amount: '30.00', status: 'open' });
    expect((await client.paymentLinks.list().toArray()).map((l) => l.id)).toEqual([link.id]);
    // The SDK's key, repeated by the caller: the same link and the same endpoint (issue 51).
    const keyed = { amount: '5', currency: 'EUR', description: 'Keyed' } as const;
    const again = await client.paymentLinks.create(keyed, { idempotencyKey: `link-${link.id}` });
    expect((await client.paymentLinks.create(keyed, { idempotencyKey: `link-${link.id}` })).id).toBe(again.id);
    const hook = { url: `${shopUrl}/webhooks-keyed` };
    const first = await client.webhookEndpoints.create(hook, { idempotencyKey: `hook-${link.id}` });
    expect(await client.webhookEndpoints.create(hook, { idempotencyKey: `hook-${link.id}` })).toMatchObject({
      id: first.id,
      secret: first.secret,
    });
    await client.paymentLinks.cancel(again.id);
    expect(await client.paymentLinks.cancel(link.id)).toMatchObject({ status: 'expired', canceled_at: expect.any(Number) });
    await expect(client.paymentLinks.create({ amount: '1', currency: 'EUR', description: 'x', lifetime: 'forever' })).rejects.toMatchObject(
      {
        status: 400,
        code: 'invalid_lifetime',
        field: 'lifetime',
      },
    );
  });

  it('listen stops on Ctrl-C, and refuses a Live key before it starts', async () => {
    listen.kill('SIGINT');
    const [code] = (await once(listen, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(listenOutput).toMatch(/Stopped\.\n$/);
    const live = spawn(process.execPath, [
      CLI,
      'listen',
      '--forward-to',
      `${shopUrl}/webhooks`,
      '--api-key',
      merchant.liveKey,
      '--api-url',
      platform.url,
    ]);
    let stderr = '';
    live.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [liveCode] = (await once(live, 'exit')) as [number | null];
    expect(liveCode).toBe(2);
    expect(stderr).toMatch(/Test events only/);
  });
});
