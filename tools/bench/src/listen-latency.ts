/**
 * `hosted-checkout listen` forwarding latency (issue 44: p95 under 0.5 s): from the API answering a
 * simulate call (the event is recorded) to a local receiver having the signed, verified delivery.
 * Starts a platform of its own (gateway, checkout, settlement, webhooks; this machine's PostgreSQL and
 * NATS, throw-away databases) and the real CLI as a process, then drives payments one at a time.
 *
 *   TEST_INFRA=local node tools/bench/src/listen-latency.ts [payments=40]
 *
 * Each payment is started (payment.started) and simulated paid (payment.paid); both are measured from
 * the call's answer. Prints n, p50, p95, max in ms.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, verifyWebhook, type WebhookEvent } from '../../../packages/sdk/src/index.ts';
import { startPlatform } from '../../../e2e/test/platform-harness.ts';

const payments = Number(process.argv[2] ?? 40);
const CLI = fileURLToPath(new URL('../../../packages/sdk/bin/hosted-checkout.ts', import.meta.url));

const platform = await startPlatform({ webhooks: true });
const merchant = await platform.merchant();
const client = createClient({ apiKey: merchant.testKey, baseUrl: platform.url });

let secret = '';
const arrived = new Map<string, number>();
let notify: () => void = () => {};
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const event = verifyWebhook(Buffer.concat(chunks), req.headers, secret) as WebhookEvent;
    arrived.set(`${event.data.payment?.id ?? ''} ${event.type}`, performance.now());
    res.writeHead(204).end();
    notify();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const address = receiver.address();
const port = typeof address === 'object' && address ? address.port : 0;

const cli = spawn(process.execPath, [CLI, 'listen', '--forward-to', `http://127.0.0.1:${port}/hooks`], {
  env: {
    ...process.env,
    TEST_SECRET_KEY: merchant.testKey,
    GATEWAY_URL: platform.url,
    XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'hc-bench-')),
  },
});
let output = '';
cli.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
while (!/Signing secret[^\n]*: (whsec_\S+)\n/.test(output)) await new Promise((resolve) => setTimeout(resolve, 50));
secret = /Signing secret[^\n]*: (whsec_\S+)\n/.exec(output)![1]!;

async function arrival(key: string): Promise<number> {
  while (!arrived.has(key)) await new Promise<void>((resolve) => (notify = resolve));
  return arrived.get(key)!;
}

const latencies: number[] = [];
for (let i = 0; i < payments; i += 1) {
  const session = await client.checkoutSessions.create({ amount: '1.00', currency: 'USD', description: `Bench ${i}` });
  await client.checkoutSessions.start(session.id, { customer_email: 'bench@example.com' });
  const started = performance.now();
  latencies.push((await arrival(`${session.id} payment.started`)) - started);
  await client.payments.simulate(session.id, 'paid');
  const paid = performance.now();
  latencies.push((await arrival(`${session.id} payment.paid`)) - paid);
}

const sorted = latencies.map((ms) => Math.max(0, ms)).sort((a, b) => a - b);
const at = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
process.stdout.write(
  `listen forwarding latency (API answer → verified at the local route): n=${sorted.length} p50=${at(0.5)} ms p95=${at(0.95)} ms max=${at(1)} ms\n`,
);

cli.kill('SIGINT');
await once(cli, 'exit');
receiver.close();
await platform.stop();
