import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import type { WebhooksDependencies } from './dependencies.ts';

export function listEndpoints(deps: WebhooksDependencies, scope: Scope): Promise<WebhookEndpoint[]> {
  return deps.endpoints.list(scope);
}
