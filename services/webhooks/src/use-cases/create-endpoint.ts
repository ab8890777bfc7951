import { newId } from '@hc/ids';
import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import { parseEventFilter } from '../domain/event-types.ts';
import { newSigningSecret } from '../domain/signing.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { checkedDescription, checkedUrl } from './endpoint-input.ts';

/** Registers an endpoint and returns its signing secret: the only moment it is shown. */
export async function createEndpoint(
  deps: WebhooksDependencies,
  scope: Scope,
  input: { url: string; description?: string | undefined; enabledEvents: readonly string[] },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkedUrl(deps, scope, input.url);
  const description = checkedDescription(input.description);
  const enabledEvents = parseEventFilter(input.enabledEvents);
  const now = deps.now();
  const secret = newSigningSecret();
  const endpoint = await deps.endpoints.create(
    scope,
    { id: newId('webhookEndpoint', now.getTime()), url, description, enabledEvents },
    secret,
    now,
  );
  return { endpoint, secret };
}
