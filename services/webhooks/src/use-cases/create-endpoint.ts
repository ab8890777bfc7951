import { ApiError } from '@hc/errors';
import { isId, newId } from '@hc/ids';
import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import { parseEventFilter } from '../domain/event-types.ts';
import { newSigningSecret } from '../domain/signing.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { checkedDescription, checkedUrl } from './endpoint-input.ts';

export interface CreatedEndpoint {
  endpoint: WebhookEndpoint;
  /** The signing secret: shown by the create, and again only to a retry of the same idempotent create. */
  secret: string;
  /** False when `presetId` named an endpoint already made: a retried idempotent create. */
  created: boolean;
}

/**
 * Registers an endpoint and returns its signing secret. With `presetId` (the gateway's idempotent
 * creates, docs/adr/0073) the endpoint gets that id, and creating it again answers the endpoint made
 * the first time with its current secret, opened from its sealed row (nothing else keeps it), even
 * where a new create would now be refused (its host no longer resolves): that endpoint is made.
 */
export async function createEndpoint(
  deps: WebhooksDependencies,
  scope: Scope,
  input: { url: string; description?: string | undefined; enabledEvents: readonly string[] },
  presetId?: string,
): Promise<CreatedEndpoint> {
  try {
    return await createNew(deps, scope, input, presetId);
  } catch (error) {
    if (!(error instanceof ApiError) || presetId === undefined || !isId('webhookEndpoint', presetId)) throw error;
    const existing = await madeEndpoint(deps, scope, presetId);
    if (existing) return existing;
    throw error;
  }
}

async function createNew(
  deps: WebhooksDependencies,
  scope: Scope,
  input: { url: string; description?: string | undefined; enabledEvents: readonly string[] },
  presetId: string | undefined,
): Promise<CreatedEndpoint> {
  const url = await checkedUrl(deps, scope, input.url);
  const description = checkedDescription(input.description);
  const enabledEvents = parseEventFilter(input.enabledEvents);
  if (presetId !== undefined && !isId('webhookEndpoint', presetId)) {
    throw new ApiError('invalid_request', 'The preset id is not a webhook endpoint id.', 'id');
  }
  const now = deps.now();
  const secret = newSigningSecret();
  const fields = { id: presetId ?? newId('webhookEndpoint', now.getTime()), url, description, enabledEvents };
  if (presetId === undefined) return { endpoint: await deps.endpoints.create(scope, fields, secret, now), secret, created: true };
  const endpoint = await deps.endpoints.createUnlessTaken(scope, fields, secret, now);
  if (endpoint) return { endpoint, secret, created: true };
  const existing = await madeEndpoint(deps, scope, presetId);
  // Taken by a deleted endpoint of the caller's (or, a ULID collision, anybody else's): not there to answer.
  if (!existing) throw new ApiError('not_found', 'The webhook endpoint this Idempotency-Key created was deleted.');
  return existing;
}

async function madeEndpoint(deps: WebhooksDependencies, scope: Scope, id: string): Promise<CreatedEndpoint | null> {
  const endpoint = await deps.endpoints.find(scope, id);
  if (!endpoint) return null;
  return { endpoint, secret: await deps.endpoints.currentSecret(id, deps.now()), created: false };
}
