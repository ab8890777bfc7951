import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { getEndpoint } from './get-endpoint.ts';

export async function setEndpointEnabled(deps: WebhooksDependencies, scope: Scope, id: string, enabled: boolean): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(deps, scope, id);
  if ((endpoint.status === 'enabled') === enabled) return endpoint;
  return deps.endpoints.setStatus(id, enabled ? 'enabled' : 'disabled', deps.now());
}
