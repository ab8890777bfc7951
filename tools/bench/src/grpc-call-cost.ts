/**
 * The gateway's CPU per gRPC call, alone (issue 33): a checkout stand-in answers GetCheckoutSession in
 * a process of its own with a fixed session; this process calls it at 64 calls in flight through
 * @hc/grpc's client and prints its own CPU microseconds per call, for each client variant in turn
 * (A, B, A, B… so the machine's other load falls on both alike). Not a test.
 *
 *   node tools/bench/src/grpc-call-cost.ts [calls per variant and round = 20000] [rounds = 3]
 */
import { spawn } from 'node:child_process';
import { createGrpcServer, createServiceClient, type ChannelOptions } from '@hc/grpc';
import { createLogger } from '@hc/logging';
import { CheckoutService, SessionStatus } from '@hc/proto/checkout/v1';

const session = {
  id: 'pay_01JBENCHGRPCCALLCOST000000',
  url: 'https://pay.example/pay/pay_01JBENCHGRPCCALLCOST000000',
  status: SessionStatus.OPEN,
  amount: '25.00',
  currency: 'EUR',
  description: 'Benchmark order',
  customerEmail: 'bench@example.com',
  created: 1795319832n,
  expiresAt: 1795406232n,
  metadata: { entries: { run: 'bench' } },
  settlement: {},
};

if (process.argv[2] === 'serve') {
  const server = createGrpcServer(createLogger('grpc-call-cost', { level: 'warn' }));
  // Only GetCheckoutSession is called; the server wants a handler for every method.
  const handlers = Object.fromEntries(CheckoutService.methods.map((method) => [method.localName, async () => ({ session })]));
  server.add(CheckoutService, handlers as never);
  console.log(await server.listen('127.0.0.1:0'));
} else {
  const calls = Number(process.argv[2] ?? 20_000);
  const rounds = Number(process.argv[3] ?? 3);
  const child = spawn(process.execPath, [import.meta.filename, 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  // Channel options to compare (docs/performance.md, issue 33: channelz and retries off measured
  // within the noise; the client's stack trace per call, now not captured, was the larger cost).
  const variants: [string, ChannelOptions | undefined][] = [
    ['grpc-js defaults', undefined],
    ['no channelz, no retries', { 'grpc.enable_channelz': 0, 'grpc.enable_retries': 0 }],
  ];
  const clients = variants.map(([name, options]) => ({
    name,
    client: createServiceClient(CheckoutService, `127.0.0.1:${port}`, { timeoutMs: 5_000, channelOptions: options }),
    perCall: [] as number[],
  }));
  const ctx = { accountId: 'acct_bench', livemode: false, requestId: 'req_bench' };
  const run = async (client: (typeof clients)[number]['client'], n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next++ < n) await client.getCheckoutSession({ id: session.id }, ctx);
      }),
    );
  };
  for (const { client } of clients) await run(client, 3_000);
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of clients) {
      const before = process.cpuUsage();
      await run(variant.client, calls);
      const used = process.cpuUsage(before);
      variant.perCall.push((used.user + used.system) / calls);
    }
  }
  for (const { name, perCall } of clients)
    console.log(`${name.padEnd(28)} ${perCall.map((us) => us.toFixed(1)).join(' / ')} µs of client CPU per call`);
  for (const { client } of clients) client.close();
  child.kill();
}
