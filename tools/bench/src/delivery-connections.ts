/**
 * The webhooks service's CPU per delivery, sender side alone (docs/adr/0111): an https receiver runs in
 * a process of its own (a throw-away self-signed certificate, as a Live endpoint); this process POSTs
 * deliveries to it through the delivery sender (`sendHttpAttempt`) at 8 in flight (the worker's
 * concurrency per endpoint) and prints its own CPU microseconds per delivery, for each way of
 * connecting in turn (A, B, A, B… so the machine's other load falls on both alike):
 *   - a new connection per delivery, TCP connect and TLS handshake each time (before ADR 0111);
 *   - kept-alive connections from the pool of the endpoint's checked address (ADR 0111).
 * Not a test.
 *
 *   node tools/bench/src/delivery-connections.ts [deliveries per variant and round = 2000] [rounds = 3] [http|https = https]
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { DeliveryConnections } from '../../../services/webhooks/src/adapters/delivery-connections.ts';
import { sendHttpAttempt } from '../../../services/webhooks/src/adapters/http-sender.ts';
import { selfSignedCertificate } from '../../../services/webhooks/test/support/tls.ts';

const HOSTNAME = 'hooks.bench.test';
const IN_FLIGHT = 8;

if (process.argv[2] === 'serve') {
  // The receiver: answers 200 with a short body, as a merchant's handler does, keeping connections alive.
  const handler = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    request.resume();
    request.on('end', () => response.end('{"received":true}'));
  };
  const tls = process.env['BENCH_TLS_KEY'] ? { key: process.env['BENCH_TLS_KEY'], cert: process.env['BENCH_TLS_CERT'] } : undefined;
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  server.listen(0, '127.0.0.1', () => console.log((server.address() as { port: number }).port));
} else {
  const deliveries = Number(process.argv[2] ?? 2_000);
  const rounds = Number(process.argv[3] ?? 3);
  const scheme = process.argv[4] === 'http' ? 'http' : 'https';
  const certificate = scheme === 'https' ? selfSignedCertificate(HOSTNAME) : undefined;
  const env = certificate ? { ...process.env, BENCH_TLS_KEY: certificate.key, BENCH_TLS_CERT: certificate.cert } : process.env;
  const child = spawn(process.execPath, [import.meta.filename, 'serve'], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const port = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  const url = new URL(`${scheme}://${HOSTNAME}:${port}/hooks`);
  const address = { address: '127.0.0.1', family: 4 };
  const body = JSON.stringify({ id: 'evt_bench', type: 'payment.paid', data: { object: { id: 'pay_bench', amount: '25.00' } } });
  const pool = new DeliveryConnections();
  const transport = scheme === 'https' ? https : http;
  const variants = [
    // What `agent: false` did: an agent of its own per delivery, so a connection of its own.
    { name: 'a new connection per delivery', agent: () => new transport.Agent({ keepAlive: false }), perDelivery: [] as number[] },
    { name: 'kept-alive pool (ADR 0111)', agent: () => pool.agentFor(url, address, certificate?.cert), perDelivery: [] as number[] },
  ];
  const run = async (variant: (typeof variants)[number], n: number): Promise<void> => {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < n) {
          const result = await sendHttpAttempt({
            url,
            address,
            headers: { 'content-type': 'application/json' },
            body,
            timeoutMs: 10_000,
            ca: certificate?.cert,
            agent: variant.agent(),
          });
          if (result.kind !== 'response' || result.statusCode !== 200) throw new Error(`delivery failed: ${JSON.stringify(result)}`);
        }
      }),
    );
  };
  for (const variant of variants) await run(variant, Math.min(deliveries, 300));
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of variants) {
      const before = process.cpuUsage();
      await run(variant, deliveries);
      const used = process.cpuUsage(before);
      variant.perDelivery.push((used.user + used.system) / deliveries);
    }
  }
  console.log(`${scheme} receiver on loopback, ${IN_FLIGHT} deliveries in flight, ${deliveries} per variant and round:`);
  for (const { name, perDelivery } of variants)
    console.log(`  ${name.padEnd(32)} ${perDelivery.map((us) => us.toFixed(0)).join(' / ')} µs of sender CPU per delivery`);
  pool.close();
  child.kill();
}
