import type { Router } from 'express';
import { ApiError } from '@hc/errors';
import { ENDPOINT_CHECK_DEADLINE_MS, type ServiceClient } from '@hc/grpc';
import type { WebhooksService } from '@hc/proto/webhooks/v1';
import { webhookEndpointObject } from '../presenters/integration.ts';
import { webhookEndpointCheckObject } from '../presenters/webhook-check.ts';
import { callContext } from '../locals.ts';
import { readIdempotencyKey, sentIdempotencyKey } from '../middleware/idempotency-key.ts';
import { jsonObjectBody, optionalJsonObjectBody } from '../middleware/json-body.ts';
import { idempotencyReplays } from '../metrics.ts';
import { createWebhookEndpoint } from '../../../use-cases/create-webhook-endpoint.ts';
import type { IdempotencyDependencies } from '../../../use-cases/create-idempotently.ts';
import { validateCreateWebhookEndpoint, validateUpdateWebhookEndpoint } from '../validation/integration-schemas.ts';
import { answerJson } from '../answer.ts';

/**
 * /v1/webhook_endpoints: the merchant manages its endpoints with the secret key (issue 29, ADR 0045),
 * through the same WebhooksService calls the dashboard and the operator CLI make, in the key's mode.
 * The signing secret is answered by create and rotate only, once; a create replayed with its
 * Idempotency-Key answers it again (createWebhookEndpoint says why).
 */
export function webhookEndpointRoutes(
  router: Router,
  webhooks: ServiceClient<typeof WebhooksService>,
  idempotent: IdempotencyDependencies,
): void {
  // Idempotent as every create (Idempotency-Key: the checkout session's rules, createIdempotently).
  router.post('/webhook_endpoints', readIdempotencyKey, jsonObjectBody, async (req, res) => {
    const body = validateCreateWebhookEndpoint(req.body);
    const result = await createWebhookEndpoint({ ...idempotent, webhooks }, callContext(res), {
      fields: { url: body.url, description: body.description ?? undefined, enabledEvents: body.enabled_events ?? [] },
      idempotencyKey: sentIdempotencyKey(res),
    });
    if (result.status === 200) idempotencyReplays.add(1, { create: 'webhook_endpoint' });
    answerJson(res, result.status, { ...webhookEndpointObject(result.object.endpoint), secret: result.object.secret });
  });

  router.get('/webhook_endpoints', async (_req, res) => {
    const { endpoints } = await webhooks.listEndpoints({}, callContext(res));
    // Few per account (no paging): the list shape of every list, on one page.
    answerJson(res, 200, { data: endpoints.map(webhookEndpointObject), has_more: false, next_cursor: null });
  });

  router.get('/webhook_endpoints/:id', async (req, res) => {
    const { endpoint } = await webhooks.getEndpoint({ id: req.params.id }, callContext(res)).catch(withoutField);
    answerJson(res, 200, webhookEndpointObject(required(endpoint)));
  });

  router.post('/webhook_endpoints/:id', jsonObjectBody, async (req, res) => {
    const body = validateUpdateWebhookEndpoint(req.body);
    const context = callContext(res);
    const id = req.params.id as string;
    // Found first: another account's or mode's id is not_found whatever the body says.
    let { endpoint } = await webhooks.getEndpoint({ id }, context).catch(withoutField);
    const changes = body.url != null || body.description !== undefined || body.enabled_events != null;
    if (changes) {
      ({ endpoint } = await webhooks.updateEndpoint(
        {
          id,
          url: body.url ?? undefined,
          // null clears the description (the service's empty string).
          description: body.description === undefined ? undefined : (body.description ?? ''),
          enabledEvents: body.enabled_events ?? [],
          replaceEnabledEvents: body.enabled_events != null,
        },
        context,
      ));
    }
    if (body.status === 'disabled' && endpoint?.status !== 'disabled') ({ endpoint } = await webhooks.disableEndpoint({ id }, context));
    if (body.status === 'enabled' && endpoint?.status !== 'enabled') ({ endpoint } = await webhooks.enableEndpoint({ id }, context));
    answerJson(res, 200, webhookEndpointObject(required(endpoint)));
  });

  router.delete('/webhook_endpoints/:id', async (req, res) => {
    const { id } = await webhooks.deleteEndpoint({ id: req.params.id }, callContext(res)).catch(withoutField);
    answerJson(res, 200, { id, object: 'webhook_endpoint', deleted: true });
  });

  router.post('/webhook_endpoints/:id/rotate_secret', optionalJsonObjectBody, async (req, res) => {
    const rotated = await webhooks.rotateEndpointSecret({ id: req.params.id as string }, callContext(res)).catch(withoutField);
    answerJson(res, 200, {
      ...webhookEndpointObject(required(rotated.endpoint)),
      secret: rotated.secret,
      previous_secret_expires_at: Number(rotated.previousSecretExpiresAt),
    });
  });

  // An action that takes no fields, as rotate_secret; it waits for the endpoint's answers (up to twice the timeout).
  router.post('/webhook_endpoints/:id/check', optionalJsonObjectBody, async (req, res) => {
    const options = { timeoutMs: ENDPOINT_CHECK_DEADLINE_MS };
    const report = await webhooks.checkEndpoint({ endpointId: req.params.id as string }, callContext(res), options).catch(withoutField);
    answerJson(res, 200, webhookEndpointCheckObject(report));
  });
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new ApiError('internal_error');
  return value;
}

/** An unknown endpoint is the API's plain 404 not_found, as for every other object (no field). */
function withoutField(error: unknown): never {
  if (error instanceof ApiError && error.code === 'not_found') throw new ApiError('not_found', error.message);
  throw error;
}
