import { ApiError } from '@hc/errors';
import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/** One endpoint of this account and mode; another scope's endpoint is not_found. */
export async function getEndpoint(deps: WebhooksDependencies, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.endpoints.find(scope, id);
  if (!endpoint) throw new ApiError('not_found', 'No such webhook endpoint.', 'id');
  return endpoint;
}
