import { setTimeout as sleep } from 'node:timers/promises';
import type { Response, Router } from 'express';
import { ApiError } from '@hc/errors';
import type { CallContext, ServiceClient } from '@hc/grpc';
import type { WebhooksService } from '@hc/proto/webhooks/v1';
import { callContext } from '../locals.ts';
import { waitQuery } from '../validation/listen-query.ts';
import { optionalQueryString } from '../validation/payment-schemas.ts';
import { EVENTS_MAX_AGE_SECONDS } from './events.ts';
import { answerJson } from '../answer.ts';

/** `after=start`: from the oldest event kept (30 days), also the cursor of an account with none yet. */
export const LISTEN_FROM_START = 'start';

export interface ListenSettings {
  /** How often a waiting request looks for new events. */
  readonly pollMs: number;
  /** Only events recorded this long ago are listed (ADR 0046). */
  readonly settleMs: number;
  /** Aborted when the gateway stops: a waiting poll answers with what it has. */
  readonly closing?: AbortSignal | undefined;
}

export const DEFAULT_LISTEN_SETTINGS: ListenSettings = { pollMs: 200, settleMs: 150 };

/**
 * GET /v1/listen, a long poll over the account's Test events for `hosted-checkout listen` (ADR 0046):
 * answers as soon as there are events after the cursor (oldest first, up to 100), or with none after
 * `wait` seconds. Without `after` it starts from the newest event at the time of the request. The
 * answer's `next_cursor` is always set; passing it back never skips nor repeats an event. Live keys
 * are refused: Live events reach merchants only through webhook endpoints.
 */
export function listenRoutes(
  router: Router,
  webhooks: ServiceClient<typeof WebhooksService>,
  settings: ListenSettings = DEFAULT_LISTEN_SETTINGS,
): void {
  router.get('/listen', async (req, res) => {
    const context = callContext(res);
    if (context.livemode) throw new ApiError('test_mode_only');
    const query = req.query as Record<string, unknown>;
    const after = optionalQueryString(query, 'after', 'invalid_cursor');
    const waitSeconds = waitQuery(query);
    let cursor = after;
    if (cursor === undefined) {
      const latest = await webhooks.getLatestEventId({ maxAgeSeconds: EVENTS_MAX_AGE_SECONDS }, context);
      cursor = latest.id ?? LISTEN_FROM_START;
    }
    const page = await waitForEvents(webhooks, context, cursor, waitSeconds * 1000, settings, res);
    const data = page.events.map((event) => JSON.parse(event.body) as unknown);
    answerJson(res, 200, { object: 'list', data, has_more: page.hasMore, next_cursor: page.events.at(-1)?.id ?? cursor });
  });
}

async function waitForEvents(
  webhooks: ServiceClient<typeof WebhooksService>,
  context: CallContext,
  cursor: string,
  waitMs: number,
  settings: ListenSettings,
  res: Response,
): Promise<{ events: { id: string; body: string }[]; hasMore: boolean }> {
  const deadline = Date.now() + waitMs;
  const afterId = cursor === LISTEN_FROM_START ? undefined : cursor;
  for (;;) {
    const page = await webhooks.listEventsAfter(
      { afterId, limit: 100, maxAgeSeconds: EVENTS_MAX_AGE_SECONDS, settleMs: settings.settleMs },
      context,
    );
    // A client that went away stops the polling; the answer then goes nowhere.
    if (page.events.length > 0 || Date.now() >= deadline || res.req.socket.destroyed || settings.closing?.aborted) return page;
    await sleep(
      Math.min(settings.pollMs, Math.max(0, deadline - Date.now())),
      undefined,
      settings.closing ? { signal: settings.closing } : {},
    ).catch(() => undefined);
  }
}
