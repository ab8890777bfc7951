// Risk covered: hostile input nobody thought of (issue 20, item 4). Property-based: fast-check
// generates hostile bodies, headers, query strings and path ids for every endpoint and asserts, for
// each request: no 5xx; every 4xx is the API's error body with Cache-Control: no-store and a request
// id; a refused request writes nothing; accepted text is returned byte for byte.
// Seeded and bounded: FUZZ_RUNS cases per property (default 60) from FUZZ_SEED (default fixed), so a
// failure replays with the seed and path fast-check prints. More on demand: FUZZ_RUNS=2000 ./scripts/test <this file>.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { bodyOf, createSession, type Json } from './e2e-helpers.ts';
import {
  acceptableCreateBody,
  hostileCreateBody,
  hostileEmail,
  hostileQuery,
  oneHostileFieldBody,
  hostileText,
  hostileUrlComponent,
  headerValue,
  wireBody,
} from './hostile-arbitraries.ts';
import { startPlatform, type Platform, type TestMerchant } from './platform-harness.ts';
import { rawRequest, writeCounts, type RawResponse } from './raw-http.ts';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 60);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_122);
const settings = { numRuns: RUNS, seed: SEED, endOnFailure: true };
/** Each case is a few requests and row counts (about 0.15 s here); generous for a loaded machine. */
const PROPERTY_TIMEOUT_MS = 30_000 + RUNS * 1000;

let platform: Platform;
let merchant: TestMerchant;

beforeAll(async () => {
  platform = await startPlatform();
  merchant = await platform.merchant();
}, 60_000);
afterAll(async () => {
  await platform.stop();
});

/** Status, headers and JSON body of an answer, whichever way it was sent. */
interface Answer {
  status: number;
  header(name: string): string | null;
  body: unknown;
}

async function fromFetch(response: Response): Promise<Answer> {
  const text = await response.text();
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

function fromRaw(response: RawResponse): Answer {
  return {
    status: response.status,
    header: (name) => response.headers[name] ?? null,
    body: response.body === '' ? undefined : (JSON.parse(response.body) as unknown),
  };
}

/** The invariants every answer keeps: never 5xx; a refusal is the error body, no-store, a request id. */
function expectWellFormed(answer: Answer): void {
  expect(answer.status).toBeLessThan(500);
  expect(answer.header('cache-control')).toBe('no-store');
  expect(answer.header('x-request-id')).toMatch(/^req_/);
  if (answer.status >= 400) {
    expect(answer.body).toEqual({
      error: { code: expect.stringMatching(/^[a-z_]+$/), message: expect.any(String), ...fieldOf(answer.body) },
    });
  }
}

function fieldOf(body: unknown): { field?: unknown } {
  const error = (body as { error?: { field?: unknown } } | undefined)?.error;
  return error && 'field' in error ? { field: expect.any(String) } : {};
}

function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return fetch(`${platform.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${merchant.testKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body }),
  }).then(fromFetch);
}

/** Counted per property and written to the console, for docs/reliability.md. */
const tally: Record<string, { cases: number; statuses: Record<number, number> }> = {};
function count(property: string, status: number): void {
  const entry = (tally[property] ??= { cases: 0, statuses: {} });
  entry.cases += 1;
  entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
}
afterAll(() => {
  console.info(`fuzz seed ${SEED}, ${RUNS} runs per property:\n${JSON.stringify(tally, null, 1)}`);
});

describe(`hostile input fuzz (seed ${SEED}, ${RUNS} cases per property)`, () => {
  it(
    'POST /v1/checkout_sessions: no 5xx, refusals write nothing, accepted text comes back byte for byte',
    async () => {
      const headers = fc.record(
        {
          'idempotency-key': headerValue,
          'content-type': fc.oneof(
            { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
            { weight: 1, arbitrary: fc.oneof(fc.constantFrom('text/plain', 'application/json; charset=latin1'), headerValue) },
          ),
        },
        { requiredKeys: [] },
      );
      const body = fc.oneof(
        acceptableCreateBody.map((value) => JSON.stringify(value)),
        oneHostileFieldBody.map((value) => JSON.stringify(value)),
        wireBody(hostileCreateBody),
      );
      await fc.assert(
        fc.asyncProperty(body, headers, async (text, extra) => {
          const before = await writeCounts(platform);
          const answer = await send('POST', '/v1/checkout_sessions', text, extra);
          count('create', answer.status);
          expectWellFormed(answer);
          if (answer.status >= 400) expect(await writeCounts(platform)).toEqual(before);
          if (answer.status === 201) expectReturnedAsSent(JSON.parse(text) as Json, answer.body as Json);
        }),
        settings,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'POST /v1/checkout_sessions/:id/start: no 5xx, a refused start leaves the session as it was',
    async () => {
      let session = await createSession(platform, merchant.testKey);
      const startBody = fc.record(
        {
          customer_email: fc.oneof(fc.constant('ann@example.com'), hostileEmail, hostileText),
          country: fc.oneof(fc.constant('US'), hostileText),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(wireBody(startBody), fc.option(hostileUrlComponent, { freq: 3 }), async (body, hostileId) => {
          const id = hostileId ?? String(session['id']);
          const before = await bodyOf(
            await platform.request('GET', `/v1/checkout_sessions/${String(session['id'])}`, { key: merchant.testKey }),
          );
          const answer = await send('POST', `/v1/checkout_sessions/${id}/start`, body);
          count('start', answer.status);
          expectWellFormed(answer);
          const after = await bodyOf(
            await platform.request('GET', `/v1/checkout_sessions/${String(session['id'])}`, { key: merchant.testKey }),
          );
          if (answer.status >= 400) expect(after).toEqual(before);
          if (answer.status === 200) session = await createSession(platform, merchant.testKey);
        }),
        settings,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'GET lists and objects, and simulate: hostile path ids and query strings never make a 5xx',
    async () => {
      const request = fc.oneof(
        fc
          .tuple(fc.constantFrom('/v1/payments', '/v1/customers', '/v1/orders'), hostileQuery)
          .map(([path, query]) => ['GET', `${path}?${query}`, undefined] as const),
        fc
          .tuple(fc.constantFrom('checkout_sessions', 'payments', 'customers', 'orders'), hostileUrlComponent, hostileQuery)
          .map(([kind, id, query]) => ['GET', `/v1/${kind}/${id}?${query}`, undefined] as const),
        fc
          .tuple(
            hostileUrlComponent,
            wireBody(fc.record({ outcome: fc.oneof(fc.constantFrom('paid', 'failed'), hostileText) }, { requiredKeys: [] })),
          )
          .map(([id, body]) => ['POST', `/v1/payments/${id}/simulate`, body] as const),
      );
      await fc.assert(
        fc.asyncProperty(request, async ([method, path, body]) => {
          const answer = await send(method, path, body);
          count('reads and simulate', answer.status);
          expectWellFormed(answer);
        }),
        settings,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'raw HTTP: hostile bytes in the request line and headers get the error body or a normal answer',
    async () => {
      const rawBytes = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('latin1'));
      const request = fc.record({
        path: fc.oneof(
          hostileUrlComponent.map((id) => `/v1/checkout_sessions/${id}`),
          rawBytes.map((b) => `/v1/payments/${b}`),
        ),
        header: fc.constantFrom('Idempotency-Key', 'Authorization', 'Content-Type', 'Content-Length', 'Transfer-Encoding', 'X-Anything'),
        value: fc.oneof(headerValue, rawBytes, fc.constantFrom('-1', '1, 2', 'chunked', 'chunked, gzip')),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ path, header, value }) => {
          const before = await writeCounts(platform);
          const message = [
            `POST ${path} HTTP/1.1`,
            'Host: gateway.test',
            `Authorization: Bearer ${merchant.testKey}`,
            'Content-Type: application/json',
            'Content-Length: 2',
            `${header}: ${value}`,
            'Connection: close',
            '',
            '{}',
          ].join('\r\n');
          const answer = fromRaw(await rawRequest(platform.url, Buffer.from(message, 'latin1')));
          count('raw http', answer.status);
          expectWellFormed(answer);
          expect(await writeCounts(platform)).toEqual(before);
        }),
        settings,
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

/** What a merchant sent in text fields is what the session object returns, byte for byte. */
function expectReturnedAsSent(sent: Json, returned: Json): void {
  expect(returned['description']).toBe(sent['description']);
  expect(returned['reference']).toBe(sent['reference'] ?? null);
  expect(returned['metadata']).toEqual(sent['metadata'] ?? null);
}
