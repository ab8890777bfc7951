/**
 * The fetch the client sends every request through: 429 and 503 answers, and a connection that
 * failed before any answer, are tried again after the server's Retry-After (seconds) or a short
 * exponential back-off, up to `maxRetries` times. Only requests that are safe to repeat are retried:
 * reads, and writes that carry an Idempotency-Key (the same key on every try, so the server makes
 * one session however many tries reach it).
 */
export interface RetryOptions {
  readonly maxRetries: number;
  /** A longer Retry-After is cut to this (a 429 says 60 s; a script may prefer to fail sooner). */
  readonly maxDelayMs: number;
  readonly fetch: (request: Request) => Promise<Response>;
}

const RETRIED_STATUSES = new Set([429, 503]);
const BASE_DELAY_MS = 500;

function repeatable(request: Request): boolean {
  return request.method === 'GET' || request.method === 'DELETE' || request.headers.has('idempotency-key');
}

/** Retry-After in seconds (the API's form), else the back-off for this try with some jitter. */
export function retryDelayMs(response: Response | undefined, attempt: number, maxDelayMs: number): number {
  const header = response?.headers.get('retry-after');
  const seconds = header !== null && header !== undefined && /^[0-9]+$/.test(header) ? Number(header) : undefined;
  const delay = seconds !== undefined ? seconds * 1000 : BASE_DELAY_MS * 2 ** attempt * (0.75 + Math.random() / 2);
  return Math.min(delay, maxDelayMs);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function retryingFetch(options: RetryOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const retries = repeatable(request) ? options.maxRetries : 0;
    for (let attempt = 0; ; attempt += 1) {
      // A Request's body can be read once: every try sends a copy.
      const copy = request.clone();
      let response: Response | undefined;
      try {
        response = await options.fetch(copy);
      } catch (error) {
        if (attempt >= retries || request.signal.aborted) throw error;
      }
      if (response && (!RETRIED_STATUSES.has(response.status) || attempt >= retries)) return response;
      await response?.body?.cancel();
      await sleep(retryDelayMs(response, attempt, options.maxDelayMs), request.signal);
    }
  };
}
