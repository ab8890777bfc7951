/**
 * Small assertions shared by the end-to-end tests: reading JSON bodies as plain objects and checking
 * the spec's error body ({ error: { code, message, field? } }) together with the HTTP status.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats, streamName } from '@hc/events';
import pg from 'pg';
import type { Platform } from './platform-harness.ts';

export type Json = Record<string, unknown>;

/** A valid create body; tests override single fields. */
export const VALID_BODY: Readonly<Json> = { amount: '25.00', currency: 'USD', description: 'Blue mug' };

export async function bodyOf(response: Response): Promise<Json> {
  const body: unknown = await response.json();
  expect(typeof body === 'object' && body !== null && !Array.isArray(body)).toBe(true);
  return body as Json;
}

/**
 * The response is the error `code` with `status`; the body is exactly { error: { code, message } },
 * plus `field` when one is expected (and no `field` when none is).
 */
export async function expectError(response: Response, status: number, code: string, field?: string): Promise<Json> {
  const body = await bodyOf(response);
  expect({ status: response.status, body }).toEqual({
    status,
    body: { error: { code, message: expect.any(String), ...(field === undefined ? {} : { field }) } },
  });
  return body;
}

/** POST /v1/checkout_sessions with `body` (objects as JSON). */
export function create(platform: Platform, key: string, body: unknown): Promise<Response> {
  return platform.request('POST', '/v1/checkout_sessions', { key, body });
}

/** Creates a session that must succeed and returns its object. */
export async function createSession(platform: Platform, key: string, body: Json = VALID_BODY): Promise<Json> {
  const response = await create(platform, key, body);
  const session = await bodyOf(response);
  expect({ status: response.status, session }).toEqual({ status: 201, session: expect.objectContaining({ object: 'checkout_session' }) });
  return session;
}

export function retrieve(platform: Platform, key: string, id: string): Promise<Response> {
  return platform.request('GET', `/v1/checkout_sessions/${id}`, { key });
}

/** The checkout session object's keys, as the spec lists them. */
export const SESSION_FIELDS = [
  'id',
  'object',
  'url',
  'status',
  'livemode',
  'amount',
  'currency',
  'description',
  'reference',
  'customer_email',
  'created',
  'expires_at',
  'started_at',
  'metadata',
  // Additive: the buyer's language the merchant chose on create, or null (ADR 0089).
  'locale',
];

/** The payment object's keys: every session key plus the payment's own. */
export const PAYMENT_FIELDS = [...SESSION_FIELDS, 'paid_at', 'provider', 'hold_reason', 'hold_acceptable', 'canceled_at', 'settlement'];

export { eventually } from '@hc/test-kit';

/** Every row of every table of a database, as text: where personal data could hide after an erasure. */
export async function everyRowOf(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    const rows: string[] = [];
    // One query at a time: a pg client runs its queries in sequence anyway.
    for (const { name } of tables.rows) {
      rows.push(...(await client.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`)).rows.map((r) => r.row));
    }
    return rows.join('\n');
  } finally {
    await client.end();
  }
}

/**
 * Every message of every JetStream stream of a platform (all streams named with its prefix, whatever
 * context made them), as one text: subjects, headers and payloads.
 */
export async function everyStreamMessage(natsUrl: string, prefix: string): Promise<string> {
  const nc = await connectNats(natsUrl, 'e2e-stream-reader', { maxReconnectAttempts: 0 });
  try {
    const jsm = await jetstreamManager(nc);
    const ours = streamName(prefix, '');
    const out: string[] = [];
    for await (const stream of jsm.streams.list()) {
      if (!stream.config.name.startsWith(ours)) continue;
      const { first_seq: first, last_seq: last, messages } = stream.state;
      for (let seq = first; messages > 0 && seq <= last; seq += 1) {
        // A sequence purged or expired in between is simply gone.
        const message = await jsm.streams.getMessage(stream.config.name, { seq }).catch(() => null);
        if (!message) continue;
        const headers = message.header.keys().map((key) => `${key}: ${message.header.get(key)}`);
        out.push(`${stream.config.name} ${message.subject} ${headers.join(' ')} ${message.string()}`);
      }
    }
    return out.join('\n');
  } finally {
    await nc.close();
  }
}

/** One webhook as the merchant's server received it: headers, the RAW body (what the signature covers), parsed. */
export interface ReceivedWebhook<E = { id: string; type: string }> {
  headers: Record<string, string>;
  raw: string;
  event: E;
}

/**
 * The merchant's webhook endpoint on a free local port: keeps each delivery's raw body, as the
 * merchant guide says (docs/webhooks.md), and answers 204.
 */
export interface WebhookReceiver<E = { id: string; type: string }> {
  /** Where to point the endpoint. */
  readonly url: string;
  /** Every delivery, in arrival order. */
  readonly delivered: ReceivedWebhook<E>[];
  close(): void;
}

export async function startWebhookReceiver<E = { id: string; type: string }>(): Promise<WebhookReceiver<E>> {
  const delivered: ReceivedWebhook<E>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      delivered.push({ headers: req.headers as Record<string, string>, raw, event: JSON.parse(raw) as E });
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    delivered,
    close: () => server.close(),
  };
}
