import { ApiError } from '@hc/errors';
import type { CallContext, ServiceClient } from '@hc/grpc';
import type { CreateEndpointRequest, Endpoint, WebhooksService } from '@hc/proto/webhooks/v1';
import { createIdempotently, unlessNotFound, type CreatedObject, type IdempotencyDependencies } from './create-idempotently.ts';

type WebhooksClient = ServiceClient<typeof WebhooksService>;
type CreateRequest = Exclude<Parameters<WebhooksClient['createEndpoint']>[0], CreateEndpointRequest>;

/** What the merchant asked for: the fields retries are compared on (no id). */
export type EndpointFields = Omit<CreateRequest, 'id'>;

export interface CreateWebhookEndpointDependencies extends IdempotencyDependencies {
  readonly webhooks: WebhooksClient;
}

/** An endpoint as its create answers it: with its signing secret. */
export interface EndpointWithSecret {
  readonly endpoint: Endpoint;
  readonly secret: string;
}

/**
 * Registers a webhook endpoint, at most once per (account, mode, Idempotency-Key) when a key is given,
 * by the same flow as every create (createIdempotently). A replay answers the endpoint as it is now
 * with its current signing secret, as the first answer did: the key's holder is the merchant who
 * made it, within 24 hours, and could rotate the secret anyway. The gateway keeps no secret for it:
 * the webhooks service opens the one it keeps sealed (docs/adr/0042, docs/adr/0073).
 */
export async function createWebhookEndpoint(
  deps: CreateWebhookEndpointDependencies,
  ctx: CallContext,
  request: { fields: EndpointFields; idempotencyKey: string | undefined },
): Promise<CreatedObject<EndpointWithSecret>> {
  const { fields } = request;
  return createIdempotently(deps, ctx, request.idempotencyKey, {
    create: 'webhook_endpoint',
    idKind: 'webhookEndpoint',
    fields,
    async make(id) {
      const { endpoint, secret, created } = await deps.webhooks.createEndpoint({ ...fields, id }, ctx);
      return { object: { endpoint: required(endpoint), secret }, created };
    },
    find: async (id) =>
      unlessNotFound(
        deps.webhooks.getEndpoint({ id, withSecret: true }, ctx).then(({ endpoint, secret }) => ({
          endpoint: required(endpoint),
          secret: required(secret),
        })),
      ),
  });
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new ApiError('internal_error');
  return value;
}
