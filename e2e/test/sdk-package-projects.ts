/**
 * The merchant projects sdk-package.e2e.test.ts makes outside the workspace: each installs the packed
 * SDK and runs one program that creates, lists with auto-paging, receives a real webhook delivery
 * from the platform and verifies it, and checks a typed error. The program prints one JSON line.
 */

/** What each program prints, and what the test checks. */
export interface ProgramReport {
  /** Where the SDK was loaded from (must be a .js under the project's node_modules). */
  readonly resolved: string;
  readonly created: string[];
  readonly listed: string[];
  readonly eventType: string;
  readonly eventPaymentId: string;
  readonly notFound: boolean;
}

export interface MerchantProject {
  readonly name: string;
  readonly packageType: 'module' | 'commonjs';
  /** TypeScript: compiled with `tsc` and the config `tsc --init` writes, unchanged. */
  readonly typescript: boolean;
  readonly file: string;
  readonly source: string;
}

/** The walk in plain JavaScript, after the lines that bring in the SDK as `sdk` and node:http as `http`. */
const JS_WALK = `
async function main() {
  const client = sdk.createClient({ apiKey: process.env.HC_API_KEY, baseUrl: process.env.HC_API_URL });
  const deliveries = [];
  let delivered = () => {};
  const receiver = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      res.end('ok');
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      delivered();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = await client.webhookEndpoints.create({
    url: 'http://127.0.0.1:' + receiver.address().port + '/webhooks',
    enabled_events: ['payment.expired'],
  });
  const created = [];
  for (let i = 0; i < 3; i += 1) {
    created.push((await client.checkoutSessions.create({ amount: '1.00', currency: 'USD', description: 'Mug ' + i })).id);
  }
  const listed = [];
  for await (const payment of client.payments.list({ limit: 2 })) listed.push(payment.id);
  await client.payments.simulate(created[0], 'expired');
  while (deliveries.length === 0) await new Promise((resolve) => (delivered = resolve));
  const event = sdk.verifyWebhook(deliveries[0].body, deliveries[0].headers, endpoint.secret);
  let notFound = false;
  try {
    await client.payments.retrieve('pay_doesnotexist');
  } catch (error) {
    notFound = error instanceof sdk.HostedCheckoutApiError && error.code === 'not_found';
  }
  receiver.close();
  console.log(JSON.stringify({ resolved, created, listed, eventType: event.type, eventPaymentId: event.data.payment.id, notFound }));
}
setTimeout(() => { console.error('no delivery within 120 s'); process.exit(3); }, 120_000).unref();
main().catch((error) => { console.error(error); process.exit(1); });
`;

/** The same walk in strict TypeScript (tsc --init: strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess). */
const TS_WALK = `
interface Delivery {
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

async function main(): Promise<void> {
  const client = sdk.createClient({ apiKey: process.env['HC_API_KEY'] ?? '', baseUrl: process.env['HC_API_URL'] ?? '' });
  const deliveries: Delivery[] = [];
  let delivered: () => void = () => {};
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.end('ok');
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      delivered();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  const endpoint: sdk.WebhookEndpointWithSecret = await client.webhookEndpoints.create({
    url: 'http://127.0.0.1:' + port + '/webhooks',
    enabled_events: ['payment.expired'],
  });
  const created: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const session: sdk.CheckoutSession = await client.checkoutSessions.create({ amount: '1.00', currency: 'USD', description: 'Mug ' + i });
    created.push(session.id);
  }
  const listed: string[] = [];
  for await (const payment of client.payments.list({ limit: 2 })) listed.push(payment.id);
  await client.payments.simulate(created[0]!, 'expired');
  while (deliveries.length === 0) await new Promise<void>((resolve) => (delivered = resolve));
  const event: sdk.WebhookEvent = sdk.verifyWebhook(deliveries[0]!.body, deliveries[0]!.headers, endpoint.secret);
  let notFound = false;
  try {
    await client.payments.retrieve('pay_doesnotexist');
  } catch (error) {
    notFound = error instanceof sdk.HostedCheckoutApiError && error.code === 'not_found';
  }
  receiver.close();
  const eventPaymentId = event.data.payment?.id ?? '';
  console.log(JSON.stringify({ resolved, created, listed, eventType: event.type, eventPaymentId, notFound }));
}
setTimeout(() => {
  console.error('no delivery within 120 s');
  process.exit(3);
}, 120_000).unref();
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;

export const MERCHANT_PROJECTS: readonly MerchantProject[] = [
  {
    name: 'CommonJS',
    packageType: 'commonjs',
    typescript: false,
    file: 'main.js',
    source: `const sdk = require('@hosted-checkout/sdk');
const http = require('node:http');
const resolved = require.resolve('@hosted-checkout/sdk');
${JS_WALK}`,
  },
  {
    name: 'ESM',
    packageType: 'module',
    typescript: false,
    file: 'main.js',
    source: `import * as sdk from '@hosted-checkout/sdk';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
const resolved = fileURLToPath(import.meta.resolve('@hosted-checkout/sdk'));
${JS_WALK}`,
  },
  {
    name: 'TypeScript (ESM)',
    packageType: 'module',
    typescript: true,
    file: 'main.ts',
    source: `/// <reference types="node" />
import * as sdk from '@hosted-checkout/sdk';
import * as http from 'node:http';
import { fileURLToPath } from 'node:url';
const resolved = fileURLToPath(import.meta.resolve('@hosted-checkout/sdk'));
${TS_WALK}`,
  },
  {
    name: 'TypeScript (CommonJS)',
    packageType: 'commonjs',
    typescript: true,
    file: 'main.ts',
    source: `/// <reference types="node" />
import sdk = require('@hosted-checkout/sdk');
import http = require('node:http');
const resolved = require.resolve('@hosted-checkout/sdk');
${TS_WALK}`,
  },
];
