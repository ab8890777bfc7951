/**
 * The merchant's webhook endpoint for the fault suite: records every delivery (the `webhook-id`, its
 * type and payment) after checking its Standard Webhooks signature, and answers 200.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedEvent {
  readonly id: string;
  readonly type: string;
  readonly paymentId: string | null;
  /** When it arrived (ms since the epoch): tells a redelivery after a crash from a double send. */
  readonly at: number;
}

export interface WebhookReceiver {
  readonly url: string;
  /** Every delivery, redeliveries included, in arrival order. */
  readonly deliveries: ReceivedEvent[];
  /** Deliveries whose signature did not verify (must stay 0). */
  readonly forged: number;
  useSecret(secret: string): void;
  stop(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: ReceivedEvent[] = [];
  let verifier: Webhook | undefined;
  let forged = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        const headers = Object.fromEntries(
          ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(req.headers[h] ?? '')]),
        );
        const body = (verifier ? verifier.verify(raw, headers) : JSON.parse(raw)) as {
          id: string;
          type: string;
          data: { payment: { id: string } | null };
        };
        deliveries.push({ id: body.id, type: body.type, paymentId: body.data.payment?.id ?? null, at: Date.now() });
      } catch {
        forged += 1;
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    get forged() {
      return forged;
    },
    useSecret(secret) {
      verifier = new Webhook(secret);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
