import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@hosted-checkout/sdk';

/**
 * Merchant endpoints of several kinds for the endpoint checker's tests (issue 49): real HTTP servers
 * on 127.0.0.1 that read the raw body. The secret is set once the endpoint is registered.
 */
export interface TestEndpoint {
  readonly url: string;
  secret: string;
  /** Every request's headers and parsed body, in arrival order. */
  readonly received: { headers: IncomingHttpHeaders; body: { id: string; type: string; livemode: boolean } }[];
  close(): void;
}

type Handler = (raw: Buffer, headers: IncomingHttpHeaders, endpoint: TestEndpoint) => Promise<number>;

async function serve(handler: Handler): Promise<TestEndpoint> {
  const servers: Server[] = [];
  const endpoint: TestEndpoint = {
    url: '',
    secret: '',
    received: [],
    close: () => servers.forEach((s) => s.close().closeAllConnections()),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      endpoint.received.push({ headers: req.headers, body: JSON.parse(raw.toString('utf8')) as TestEndpoint['received'][0]['body'] });
      handler(raw, req.headers, endpoint).then(
        (status) => res.writeHead(status).end(),
        () => res.writeHead(500).end('crashed'),
      );
    });
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return Object.assign(endpoint, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks` });
}

/** The guide's receiver on the SDK: verify, acknowledge an id seen before, ignore types it does not handle. */
export function sdkEndpoint(options: { delayMs?: number; crashOnUnknownType?: boolean } = {}): Promise<TestEndpoint> {
  const seen = new Set<string>();
  return serve(async (raw, headers, endpoint) => {
    let event: WebhookEvent;
    try {
      event = verifyWebhook(raw, headers, endpoint.secret);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return 400;
      throw error;
    }
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (seen.has(event.id)) return 200;
    seen.add(event.id);
    if (options.crashOnUnknownType && !event.type.startsWith('payment.')) throw new Error(`unhandled event type ${event.type}`);
    return 200;
  });
}

/** No verification at all: answers 200 to anything, the integration most merchants write first. */
export function naiveEndpoint(): Promise<TestEndpoint> {
  return serve(async () => 200);
}
