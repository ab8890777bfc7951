import { randomUUID } from 'node:crypto';
import createFetchClient from 'openapi-fetch';
import type { paths } from './generated/openapi.ts';
import { errorFromResponse } from './errors.ts';
import { paginate, type Page } from './paging.ts';
import { transport } from './transport.ts';
import type {
  CheckoutSession,
  CreatePaymentLinkParams,
  CreateWebhookEndpointParams,
  DeletedWebhookEndpoint,
  ListPaymentLinksParams,
  PaymentLink,
  RotatedWebhookEndpoint,
  UpdateWebhookEndpointParams,
  WebhookEndpoint,
  WebhookEndpointCheck,
  WebhookEndpointWithSecret,
  CreateCheckoutSessionParams,
  Customer,
  ListCustomersParams,
  ListenPage,
  ListenParams,
  ListEventsParams,
  ListOrdersParams,
  ListPaymentsParams,
  Order,
  Payment,
  SimulateOutcome,
  StartCheckoutSessionParams,
  StartedCheckoutSession,
  WebhookEvent,
} from './types.ts';
import { SDK_VERSION } from './version.ts';
import { verifyWebhook } from './webhooks.ts';

export interface ClientOptions {
  /** A secret key, `sk_test_…` or `sk_live_…`. Keep it on the server. */
  readonly apiKey: string;
  /** Where the API answers, e.g. http://127.0.0.1:8080 (the `GATEWAY_URL` ./scripts/start prints). */
  readonly baseUrl: string;
  /**
   * Tries after the first when a request safe to repeat (GET, DELETE, any create) met a connection
   * error, a timeout, 409 idempotency_conflict, 429, 500, 502, 503 or 504. Default 2; 0 turns retries off.
   */
  readonly maxNetworkRetries?: number;
  /** The longest wait between tries, whatever Retry-After says. Default 60 000 ms. */
  readonly maxRetryDelayMs?: number;
  /** Milliseconds for one try (connect, send, read the whole answer). Default 30 000. */
  readonly timeout?: number;
  /** A fetch of your own (tests, proxies). Default: the global fetch. */
  readonly fetch?: (request: Request) => Promise<Response>;
}

export interface RequestOptions {
  /** Abort the call (all its tries); the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** This call's timeout per try, in milliseconds (instead of the client's). */
  readonly timeout?: number;
  /** This call's retries (instead of the client's). */
  readonly maxNetworkRetries?: number;
}

export interface CreateOptions extends RequestOptions {
  /** Sent as Idempotency-Key; a random one is made when absent, and kept across this call's retries. */
  readonly idempotencyKey?: string;
}

/** An async iterable over every item, plus the single-page call it is made of. */
export interface ListCall<T> extends AsyncIterable<T> {
  /** All items into an array (for small lists; prefer `for await`). */
  toArray(): Promise<T[]>;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw errorFromResponse(response, error);
  return data;
}

function listCall<T>(fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>): ListCall<T> {
  return {
    [Symbol.asyncIterator]: () => paginate(fetchPage),
    async toArray() {
      const items: T[] = [];
      for await (const item of paginate(fetchPage)) items.push(item);
      return items;
    },
  };
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_NETWORK_RETRIES = 2;

/** The client: one object per key. Every call is typed from docs/openapi.json. */
export function createClient(options: ClientOptions) {
  const userAgent = `hosted-checkout-sdk/${SDK_VERSION} node/${process.version}`;
  const http = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}` },
  });
  /**
   * What openapi-fetch needs for one call: its signal and a transport with its timeout and retries
   * (`extraMs`: a long poll's own wait, on top of the timeout).
   */
  const send = (opts: RequestOptions, extraMs = 0) => ({
    signal: opts.signal,
    fetch: transport({
      maxNetworkRetries: opts.maxNetworkRetries ?? options.maxNetworkRetries ?? DEFAULT_MAX_NETWORK_RETRIES,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
      timeoutMs: (opts.timeout ?? options.timeout ?? DEFAULT_TIMEOUT_MS) + extraMs,
      userAgent,
      fetch: options.fetch ?? ((request) => fetch(request)),
    }),
  });

  return {
    ...checkoutSessionsResource(http, send),
    ...readOnlyResources(http, send),
    ...webhookEndpointsResource(http, send),
    ...paymentLinksResource(http, send),
    /** One long poll for the account's next Test events (what `hosted-checkout listen` loops on). */
    listen(query: ListenParams = {}, opts: RequestOptions = {}): Promise<ListenPage> {
      return unwrap(http.GET('/v1/listen', { params: { query }, ...send(opts, (query.wait ?? 25) * 1000) }));
    },
    webhooks: { verify: verifyWebhook },
  };
}

type Http = ReturnType<typeof createFetchClient<paths>>;
/** What openapi-fetch needs for one call (see createClient's `send`). */
type Send = (opts: RequestOptions, extraMs?: number) => { signal: AbortSignal | undefined; fetch: ReturnType<typeof transport> };

/** Checkout sessions: create, retrieve, start (as the buyer would). */
function checkoutSessionsResource(http: Http, send: Send) {
  return {
    checkoutSessions: {
      create(body: CreateCheckoutSessionParams, opts: CreateOptions = {}): Promise<CheckoutSession> {
        const idempotencyKey = opts.idempotencyKey ?? randomUUID();
        return unwrap(http.POST('/v1/checkout_sessions', { body, headers: { 'idempotency-key': idempotencyKey }, ...send(opts) }));
      },
      retrieve(id: string, opts: RequestOptions = {}): Promise<CheckoutSession> {
        return unwrap(http.GET('/v1/checkout_sessions/{id}', { params: { path: { id } }, ...send(opts) }));
      },
      /** As the buyer would (the hosted page does this for you). */
      start(id: string, body: StartCheckoutSessionParams = {}, opts: RequestOptions = {}): Promise<StartedCheckoutSession> {
        return unwrap(http.POST('/v1/checkout_sessions/{id}/start', { params: { path: { id } }, body, ...send(opts) }));
      },
    },
  };
}

/** The resources an integration only reads: payments (and their Test-mode simulate), customers, orders, events. */
function readOnlyResources(http: Http, send: Send) {
  return {
    payments: {
      list(query: ListPaymentsParams = {}, opts: RequestOptions = {}): ListCall<Payment> {
        return listCall((startingAfter) =>
          unwrap(http.GET('/v1/payments', { params: { query: { ...query, starting_after: startingAfter } }, ...send(opts) })),
        );
      },
      retrieve(id: string, opts: RequestOptions = {}): Promise<Payment> {
        return unwrap(http.GET('/v1/payments/{id}', { params: { path: { id } }, ...send(opts) }));
      },
      /** Test mode: end a started payment (`paid`, `underpaid`, `failed`) or expire an unpaid one now. */
      simulate(id: string, outcome: SimulateOutcome, opts: RequestOptions = {}): Promise<Payment> {
        return unwrap(http.POST('/v1/payments/{id}/simulate', { params: { path: { id } }, body: { outcome }, ...send(opts) }));
      },
    },
    customers: {
      list(query: ListCustomersParams = {}, opts: RequestOptions = {}): ListCall<Customer> {
        return listCall((startingAfter) =>
          unwrap(http.GET('/v1/customers', { params: { query: { ...query, starting_after: startingAfter } }, ...send(opts) })),
        );
      },
      retrieve(id: string, opts: RequestOptions = {}): Promise<Customer> {
        return unwrap(http.GET('/v1/customers/{id}', { params: { path: { id } }, ...send(opts) }));
      },
    },
    orders: {
      list(query: ListOrdersParams = {}, opts: RequestOptions = {}): ListCall<Order> {
        return listCall((startingAfter) =>
          unwrap(http.GET('/v1/orders', { params: { query: { ...query, starting_after: startingAfter } }, ...send(opts) })),
        );
      },
      retrieve(id: string, opts: RequestOptions = {}): Promise<Order> {
        return unwrap(http.GET('/v1/orders/{id}', { params: { path: { id } }, ...send(opts) }));
      },
    },
    events: {
      list(query: ListEventsParams = {}, opts: RequestOptions = {}): ListCall<WebhookEvent> {
        return listCall((startingAfter) =>
          unwrap(http.GET('/v1/events', { params: { query: { ...query, starting_after: startingAfter } }, ...send(opts) })),
        );
      },
      retrieve(id: string, opts: RequestOptions = {}): Promise<WebhookEvent> {
        return unwrap(http.GET('/v1/events/{id}', { params: { path: { id } }, ...send(opts) }));
      },
    },
  };
}

/** Webhook endpoints: create, list, retrieve, update, delete, rotate the secret, check. */
function webhookEndpointsResource(http: Http, send: Send) {
  return {
    webhookEndpoints: {
      /** The answer carries the endpoint's signing secret, shown only here and to a retry with the same key. */
      create(body: CreateWebhookEndpointParams, opts: CreateOptions = {}): Promise<WebhookEndpointWithSecret> {
        const idempotencyKey = opts.idempotencyKey ?? randomUUID();
        return unwrap(http.POST('/v1/webhook_endpoints', { body, headers: { 'idempotency-key': idempotencyKey }, ...send(opts) }));
      },
      async list(opts: RequestOptions = {}): Promise<WebhookEndpoint[]> {
        return (await unwrap(http.GET('/v1/webhook_endpoints', send(opts)))).data;
      },
      retrieve(id: string, opts: RequestOptions = {}): Promise<WebhookEndpoint> {
        return unwrap(http.GET('/v1/webhook_endpoints/{id}', { params: { path: { id } }, ...send(opts) }));
      },
      update(id: string, body: UpdateWebhookEndpointParams, opts: RequestOptions = {}): Promise<WebhookEndpoint> {
        return unwrap(http.POST('/v1/webhook_endpoints/{id}', { params: { path: { id } }, body, ...send(opts) }));
      },
      delete(id: string, opts: RequestOptions = {}): Promise<DeletedWebhookEndpoint> {
        return unwrap(http.DELETE('/v1/webhook_endpoints/{id}', { params: { path: { id } }, ...send(opts) }));
      },
      rotateSecret(id: string, opts: RequestOptions = {}): Promise<RotatedWebhookEndpoint> {
        return unwrap(http.POST('/v1/webhook_endpoints/{id}/rotate_secret', { params: { path: { id } }, ...send(opts) }));
      },
      /**
       * Test endpoints only: the platform sends the endpoint six deliveries it must handle and answers
       * the verdicts (`score` "6/6" when all pass). It waits for the answers (up to about 20 s), so its timeout is 5 s longer.
       */
      check(id: string, opts: RequestOptions = {}): Promise<WebhookEndpointCheck> {
        return unwrap(http.POST('/v1/webhook_endpoints/{id}/check', { params: { path: { id } }, ...send(opts, 5_000) }));
      },
    },
  };
}

/** Payment links: create, list, retrieve, cancel. */
function paymentLinksResource(http: Http, send: Send) {
  return {
    paymentLinks: {
      create(body: CreatePaymentLinkParams, opts: CreateOptions = {}): Promise<PaymentLink> {
        const idempotencyKey = opts.idempotencyKey ?? randomUUID();
        return unwrap(http.POST('/v1/payment_links', { body, headers: { 'idempotency-key': idempotencyKey }, ...send(opts) }));
      },
      list(query: ListPaymentLinksParams = {}, opts: RequestOptions = {}): ListCall<PaymentLink> {
        return listCall((startingAfter) =>
          unwrap(http.GET('/v1/payment_links', { params: { query: { ...query, starting_after: startingAfter } }, ...send(opts) })),
        );
      },
      retrieve(id: string, opts: RequestOptions = {}): Promise<PaymentLink> {
        return unwrap(http.GET('/v1/payment_links/{id}', { params: { path: { id } }, ...send(opts) }));
      },
      cancel(id: string, opts: RequestOptions = {}): Promise<PaymentLink> {
        return unwrap(http.POST('/v1/payment_links/{id}/cancel', { params: { path: { id } }, ...send(opts) }));
      },
    },
  };
}

export type HostedCheckout = ReturnType<typeof createClient>;
