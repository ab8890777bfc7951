/**
 * A real webhook receiver for tests: node:http(s) on 127.0.0.1, reading the RAW body and verifying
 * it with the standardwebhooks library, as the merchant guide in docs/webhooks.md tells merchants.
 */
import { once } from 'node:events';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly body: { id: string; type: string; created: number; livemode: boolean; data: { payment: Record<string, unknown> | null } };
  /** The trusted secrets whose signature verified (by the library, on the raw body). */
  readonly verifiedBy: string[];
  readonly receivedAt: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only after this long (a slow endpoint, or a timeout). */
  delayMs?: number;
}

export type Responder = (delivery: ReceivedDelivery, nthForThisId: number) => Reply;

export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  private readonly secrets: string[] = [];
  private readonly responders = new Map<string, Responder>();
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private baseUrl = '';

  constructor(tls?: { key: string; cert: string }) {
    const handler = (req: IncomingMessage, res: ServerResponse): void => void this.handle(req, res);
    this.server = tls ? https.createServer(tls, handler) : http.createServer(handler);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(host = '127.0.0.1'): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `${this.server instanceof https.Server ? 'https' : 'http'}://${host}:${port}`;
    return this;
  }

  /** The URL of a path on this receiver; each path can answer its own way. */
  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  trust(secret: string): void {
    this.secrets.push(secret);
  }

  respond(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  at(path: string): ReceivedDelivery[] {
    return this.deliveries.filter((d) => d.path === path);
  }

  /** Waits (bounded) until `predicate` holds over what arrived. */
  async waitFor(predicate: (deliveries: ReceivedDelivery[]) => boolean, timeoutMs = 10_000): Promise<ReceivedDelivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.deliveries)) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met within ${timeoutMs} ms (${this.deliveries.length} deliveries)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.deliveries;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    const verifiedBy = this.secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(rawBody, headers);
        return true;
      } catch {
        return false;
      }
    });
    const delivery: ReceivedDelivery = {
      path: req.url ?? '/',
      headers: req.headers,
      rawBody,
      body: JSON.parse(rawBody) as ReceivedDelivery['body'],
      verifiedBy,
      receivedAt: Date.now(),
    };
    this.deliveries.push(delivery);
    const nth = this.deliveries.filter((d) => d.path === delivery.path && d.body.id === delivery.body.id).length;
    const reply = this.responders.get(delivery.path)?.(delivery, nth) ?? { status: 200, body: 'ok' };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(reply.body ?? '');
  }
}
