import { Webhook } from 'standardwebhooks';
import { HostedCheckoutApiError } from './errors.ts';
import type { HostedCheckout } from './client.ts';
import type { WebhookEvent } from './types.ts';

export { newSigningSecret } from './listen-secret.ts';

/** What happened to one forwarded event: the local server's status, or why nothing answered. */
export interface Forwarded {
  readonly event: WebhookEvent;
  readonly status: number | null;
  readonly error: string | null;
  readonly ms: number;
}

export interface ForwardOptions {
  readonly client: HostedCheckout;
  /** The merchant's local webhook route, e.g. http://localhost:3000/webhooks; absent: events are only seen. */
  readonly forwardTo?: string | undefined;
  readonly secret: string;
  /** Ctrl-C: the loop ends (a long poll in flight is dropped). */
  readonly signal: AbortSignal;
  /** `after` of the first poll; absent: events from now on. */
  readonly after?: string;
  /** Only events of these types are seen and forwarded (`--events`); absent: every type. */
  readonly types?: ReadonlySet<string> | undefined;
  /** Each event kept by `types`, before it is forwarded (`--print-json`). */
  readonly onEvent?: (event: WebhookEvent) => void;
  readonly onForwarded: (result: Forwarded) => void;
  /** Lost contact with the API (it is tried again after `retryMs`). */
  readonly onApiError?: (error: unknown) => void;
  readonly retryMs?: number;
  readonly fetch?: typeof fetch;
}

/**
 * Signs one event as a webhook delivery would be (Standard Webhooks headers, the event's `evt_` id as
 * webhook-id) and POSTs it to the local URL. The local server's failure is reported, never retried:
 * this is a development loop, and the merchant sees the status at once.
 */
export async function forwardEvent(
  event: WebhookEvent,
  options: Pick<ForwardOptions, 'secret' | 'fetch' | 'signal'> & { readonly forwardTo: string },
): Promise<Forwarded> {
  const body = JSON.stringify(event);
  const at = new Date();
  const signature = new Webhook(options.secret).sign(event.id, at, body);
  const started = performance.now();
  try {
    const response = await (options.fetch ?? fetch)(options.forwardTo, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'hosted-checkout-listen',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(10_000)]),
    });
    await response.body?.cancel();
    return { event, status: response.status, error: null, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return { event, status: null, error: reason, ms: Math.round(performance.now() - started) };
  }
}

/**
 * Polls GET /v1/listen and forwards each new Test event of the chosen types in order (the others are
 * passed over, the cursor moves past them), until the signal aborts. A key the
 * API refuses (a Live key, a revoked one) ends the loop with that error; a lost connection is tried
 * again.
 */
export async function forwardEvents(options: ForwardOptions): Promise<void> {
  let cursor = options.after;
  while (!options.signal.aborted) {
    let page;
    try {
      page = await options.client.listen(cursor === undefined ? {} : { after: cursor }, { signal: options.signal });
    } catch (error) {
      if (options.signal.aborted) return;
      if (error instanceof HostedCheckoutApiError && error.status < 500 && error.status !== 429) throw error;
      options.onApiError?.(error);
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 1000));
      continue;
    }
    for (const event of page.data) {
      if (options.signal.aborted) return;
      if (options.types && !options.types.has(event.type)) continue;
      options.onEvent?.(event);
      if (options.forwardTo !== undefined) options.onForwarded(await forwardEvent(event, { ...options, forwardTo: options.forwardTo }));
    }
    cursor = page.next_cursor;
  }
}
