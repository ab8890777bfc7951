/**
 * A merchant's webhook receiver for benchmarks: real `node:http` on loopback that verifies every
 * delivery with the SDK's verifyWebhook (as a merchant's server must) and notes when it answered
 * each event, first answer only (a redelivery does not move the figure).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../../packages/sdk/src/index.ts';

export interface BenchReceiver {
  readonly url: string;
  /** Event id → Date.now() when the 2xx answer was written. */
  readonly answered: Map<string, number>;
  /** Deliveries refused because their signature did not verify (should stay 0). */
  readonly unverified: () => number;
  trust(secret: string): void;
  stop(): Promise<void>;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const answered = new Map<string, number>();
  let secret = '';
  let unverified = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let id: string;
      try {
        id = verifyWebhook(Buffer.concat(chunks), request.headers, secret).id;
      } catch {
        unverified += 1;
        response.writeHead(400).end();
        return;
      }
      response.writeHead(204).end();
      if (!answered.has(id)) answered.set(id, Date.now());
    });
  });
  // Deliveries arrive in parallel and keep connections open: no limit of ours should queue them.
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    answered,
    unverified: () => unverified,
    trust: (next) => (secret = next),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
