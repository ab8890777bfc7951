/**
 * The fetch every request goes through (under openapi-fetch): a timeout per try, typed errors for
 * what is not an API answer, and retries with jittered exponential back-off.
 *
 * Retried — only when the request is safe to repeat (GET, DELETE, or a write carrying an
 * Idempotency-Key, the same key on every try so the server acts once): a connection that failed or
 * timed out, and the answers 409 `idempotency_conflict` (the first request with that key is still
 * running), 429, 500, 502, 503 and 504. Retry-After (seconds or an HTTP date) sets the wait when sent.
 */
import {
  HostedCheckoutConnectionError,
  HostedCheckoutTimeoutError,
  HostedCheckoutUnexpectedResponseError,
  type HostedCheckoutError,
} from './errors.ts';

export interface TransportOptions {
  /** Tries after the first, for requests safe to repeat. */
  readonly maxNetworkRetries: number;
  /** A longer Retry-After or back-off is cut to this. */
  readonly maxRetryDelayMs: number;
  /** Per try: connecting, sending and reading the whole answer. */
  readonly timeoutMs: number;
  readonly userAgent: string;
  readonly fetch: (request: Request) => Promise<Response>;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

function repeatable(request: Request): boolean {
  return request.method === 'GET' || request.method === 'DELETE' || request.headers.has('idempotency-key');
}

/** Retry-After as milliseconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^[0-9]+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before try `attempt + 1`: the server's Retry-After, else exponential back-off with jitter (50–100 %). */
export function retryDelayMs(response: Response | undefined, attempt: number, maxDelayMs: number): number {
  const asked = retryAfterMs(response?.headers.get('retry-after') ?? null);
  const backoff = Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_BACKOFF_MS) * (0.5 + Math.random() / 2);
  return Math.min(asked ?? backoff, maxDelayMs);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

type Attempt = { readonly response: Response; readonly text: string } | { readonly error: HostedCheckoutError };

/** One try: the answer read whole within the timeout, or the typed error of why there is none. */
async function attempt(request: Request, options: TransportOptions): Promise<Attempt> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([request.signal, timeout]);
  try {
    // A Request's body can be read once: every try sends a copy.
    const response = await options.fetch(new Request(request.clone(), { signal }));
    return { response, text: await response.text() };
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    if (timeout.aborted) return { error: new HostedCheckoutTimeoutError(options.timeoutMs) };
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { error: new HostedCheckoutConnectionError(`Could not reach the API: ${reason}`, { cause: error }) };
  }
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function shouldRetry(result: Attempt): boolean {
  if ('error' in result) return true;
  const { response, text } = result;
  if (RETRIED_STATUSES.has(response.status)) return true;
  const body = response.status === 409 ? parseJson(text) : undefined;
  return typeof body === 'object' && body !== null && (body as { error?: { code?: unknown } }).error?.code === 'idempotency_conflict';
}

export function transport(options: TransportOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    request.headers.set('user-agent', options.userAgent);
    const retries = repeatable(request) ? options.maxNetworkRetries : 0;
    for (let tries = 0; ; tries += 1) {
      const result = await attempt(request, options);
      if (tries < retries && shouldRetry(result)) {
        await sleep(retryDelayMs('response' in result ? result.response : undefined, tries, options.maxRetryDelayMs), request.signal);
        continue;
      }
      if ('error' in result) throw result.error;
      const { response, text } = result;
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (response.status !== 204 && parseJson(text) === NOT_JSON)
        throw new HostedCheckoutUnexpectedResponseError(response.status, text, requestId);
      return new Response(response.status === 204 ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
  };
}
