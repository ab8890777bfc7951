import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import { parseEventFilter } from '../domain/event-types.ts';
import type { EndpointPatch } from '../store/endpoints.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { checkedDescription, checkedUrl } from './endpoint-input.ts';
import { getEndpoint } from './get-endpoint.ts';

export async function updateEndpoint(
  deps: WebhooksDependencies,
  scope: Scope,
  id: string,
  input: { url?: string | undefined; description?: string | undefined; enabledEvents?: readonly string[] | undefined },
): Promise<WebhookEndpoint> {
  await getEndpoint(deps, scope, id);
  const patch: EndpointPatch = {};
  if (input.url !== undefined) patch.url = await checkedUrl(deps, scope, input.url);
  if (input.description !== undefined) patch.description = checkedDescription(input.description);
  if (input.enabledEvents !== undefined) patch.enabledEvents = parseEventFilter(input.enabledEvents);
  return deps.endpoints.update(id, patch, deps.now());
}
