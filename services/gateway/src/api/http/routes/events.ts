import type { Router } from 'express';
import { ApiError } from '@hc/errors';
import type { ServiceClient } from '@hc/grpc';
import type { WebhooksService } from '@hc/proto/webhooks/v1';
import { callContext } from '../locals.ts';
import { listQuery, optionalQueryString, unixSecondsQuery } from '../validation/payment-schemas.ts';
import { answerJson, answerJsonText } from '../answer.ts';

/** How long events stay readable over the API (issue 17: 30 days, as Stripe's /v1/events). */
export const EVENTS_MAX_AGE_SECONDS = 30n * 24n * 60n * 60n;

/**
 * The events API: the webhook events of the caller's account and mode, exactly as webhooks deliver
 * them (erased details scrubbed as in the delivery log), served by the webhooks context.
 */
export function eventRoutes(router: Router, webhooks: ServiceClient<typeof WebhooksService>): void {
  router.get('/events', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const { limit, startingAfter } = listQuery(query);
    const type = optionalQueryString(query, 'type', 'invalid_event_types');
    const createdGte = unixSecondsQuery(query, 'created[gte]');
    const createdLt = unixSecondsQuery(query, 'created[lt]');
    const page = await webhooks.listEvents(
      { limit, startingAfter, type, createdGte, createdLt, maxAgeSeconds: EVENTS_MAX_AGE_SECONDS },
      callContext(res),
    );
    const data = page.events.map((event) => JSON.parse(event.body) as unknown);
    answerJson(res, 200, { data, has_more: page.hasMore, next_cursor: page.hasMore ? (page.events.at(-1)?.id ?? null) : null });
  });

  router.get('/events/:id', async (req, res) => {
    const { event } = await webhooks.getEvent({ id: req.params.id, maxAgeSeconds: EVENTS_MAX_AGE_SECONDS }, callContext(res));
    if (!event) throw new ApiError('internal_error');
    // The stored text as delivered, byte for byte: a receiver's signature check works on it.
    answerJsonText(res, 200, event.body);
  });
}
