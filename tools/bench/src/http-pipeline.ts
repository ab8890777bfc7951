/**
 * The gateway's HTTP pipeline alone: CPU per `GET /v1/payments/:id` through the gateway's Express app
 * (createGatewayApp: request id, security headers, access log, routing, authentication, budget, the
 * compiled serializer) with in-process stand-ins for what is behind it (the key directory, checkout's
 * read and the budget answer at once), side by side with the baseline measured in the same run: a bare
 * `node:http` server answering the same bytes and headers. The difference is what the pipeline costs
 * a read (issue 48: reads by id are ~0.014 ms of gateway CPU behind the code before ADR 0103).
 * Both servers run in this process, one at a time, loaded by wrk (C, another process); CPU is this
 * process's (process.cpuUsage) over the answers wrk counted. With --profile FILE, one more round of the
 * app runs under the inspector's profiler and prints where its CPU went. Not a test.
 *
 * `--route endpoints` measures `GET /v1/webhook_endpoints` instead, a route registered last in /v1.
 *
 *   node tools/bench/src/http-pipeline.ts [--seconds 5] [--rounds 3] [--route read|endpoints] [--profile /tmp/pipeline.cpuprofile]
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { create } from '@bufbuild/protobuf';
import { createLogger } from '@hc/logging';
import { PaymentSchema } from '@hc/proto/checkout/v1/payment';
import { createGatewayApp, hashApiKey } from '@hc/gateway/testing';
import type { GatewayApp } from '@hc/gateway/testing';
import { summarizeProfile } from './profile.ts';
import { wrkLoad } from './wrk.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    profile: { type: 'string' },
    route: { type: 'string', default: 'read' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const CONNECTIONS = 32;

const secret = `sk_test_${'b'.repeat(32)}`;
const account = { id: 'acct_bench', status: 'active' as const, name: 'Bench shop', payoutWallet: null, feeBps: 150 };
const entry = { key: { id: 'key_bench', accountId: account.id, mode: 'test' as const, revokedAt: null }, account };
const keyHash = hashApiKey(secret);
const payment = create(PaymentSchema, {
  id: 'cs_bench000000000000000000',
  url: 'https://pay.example/pay/cs_bench000000000000000000',
  status: 'open',
  mode: 'test',
  source: 'api',
  amount: '19.90',
  currency: 'USD',
  description: 'Blue mug',
  createdAt: 1795319832_000n,
  expiresAt: 1795406232_000n,
});
/**
 * The gateway's app with stand-ins that answer at once. Its access log lines are made (pino's
 * serialization is counted) and dropped, where production writes them to stdout in batches.
 */
function gatewayApp(): RequestListener {
  const limiter = { consume: async () => true };
  const deps = {
    merchants: { findKeyByHash: async (hash: string) => (hash === keyHash ? entry : null) },
    checkout: { getCheckoutSession: async () => ({ payment }) },
    checkoutAdmin: {},
    customers: {},
    webhooks: { listEndpoints: async () => ({ endpoints: [] }) },
    // Only creates reach the idempotency records; the measured routes never do.
    idempotency: {},
    idempotencySettings: {},
    rateLimits: { requests: limiter, starts: limiter, listens: limiter },
    customersReadWaitMs: 0,
    logger: createLogger('gateway', { destination: { write: (_line: string) => undefined } }),
    ready: async () => undefined,
    // Stand-ins for the methods the measured routes call, not whole clients: hence the cast.
  } as unknown as GatewayApp;
  return createGatewayApp(deps);
}

/** A bare node:http server that answers what the app answers (its status, headers and body, taken once). */
async function bareAnswering(app: RequestListener, path: string): Promise<RequestListener> {
  const { server, url } = await listen(app);
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`the app answered ${response.status}: ${body}`);
  const headers = [...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name));
  server.closeAllConnections();
  server.close();
  return (_req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  };
}

async function listen(listener: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer({ keepAliveTimeout: 60_000 }, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** One figure: answers a second and this process's CPU (user + system) per answer. */
async function measure(listener: RequestListener, path: string): Promise<{ rate: number; cpuMs: number; errors: number }> {
  const { server, url } = await listen(listener);
  try {
    const before = process.cpuUsage();
    const load = await wrkLoad({
      url: `${url}${path}`,
      headers: { authorization: `Bearer ${secret}` },
      connections: CONNECTIONS,
      duration: seconds,
    });
    const used = process.cpuUsage(before);
    return { rate: load.requests / load.seconds, cpuMs: (used.user + used.system) / 1000 / load.requests, errors: load.errors };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** `read`: the read by id merchants poll; `endpoints`: GET /v1/webhook_endpoints, the last routes of /v1. */
const ROUTES: Record<string, string> = { read: `/v1/payments/${payment.id}`, endpoints: '/v1/webhook_endpoints' };
const path = ROUTES[values.route];
if (!path) throw new Error(`--route is one of ${Object.keys(ROUTES).join(', ')}`);
const app = gatewayApp();
const bare = await bareAnswering(app, path);
// Warm-up: V8 optimizes both paths before anything is counted.
await measure(app, path);
await measure(bare, path);
const row = (name: string, figure: { rate: number; cpuMs: number; errors: number }): string =>
  `${name.padEnd(22)} ${figure.rate.toFixed(0).padStart(8)} /s   ${(figure.cpuMs * 1000).toFixed(1).padStart(6)} µs CPU per answer   ${figure.errors} errors`;
console.log(`GET ${path}, ${CONNECTIONS} connections, ${seconds} s per figure, alternated`);
for (let round = 1; round <= rounds; round += 1) {
  const viaApp = await measure(app, path);
  const viaBare = await measure(bare, path);
  console.log(row(`round ${round}: gateway app`, viaApp));
  console.log(row(`round ${round}: bare node:http`, viaBare));
  console.log(`round ${round}: the pipeline's own CPU per answer: ${((viaApp.cpuMs - viaBare.cpuMs) * 1000).toFixed(1)} µs`);
}

if (values.profile) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  await measure(app, path);
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(values.profile, JSON.stringify(profile));
  session.disconnect();
  const { total, layers } = summarizeProfile(values.profile);
  console.log(`\nwhere the app's round went (${total.toFixed(0)} ms sampled, self time):`);
  for (const [layer, ms] of layers.slice(0, 25)) console.log(`  ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${layer}`);
}
