import { ApiError } from '@hc/errors';
import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/** One endpoint of this account and mode; another scope's endpoint is not_found. */
export async function getEndpoint(deps: WebhooksDependencies, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.endpoints.find(scope, id);
  if (!endpoint) throw new ApiError('not_found', 'No such webhook endpoint.', 'id');
  return endpoint;
}

/**
 * Refuses a write that found endpoint `id` no longer enabled although it was a moment before
 * (disabled or deleted meanwhile) as a request made now would be: `not_found` once deleted (getEndpoint),
 * else `endpoint_disabled`.
 */
export async function refuseRemovedMeanwhile(deps: WebhooksDependencies, scope: Scope, id: string): Promise<never> {
  await getEndpoint(deps, scope, id);
  throw new ApiError('endpoint_disabled', undefined, 'endpoint_id');
}
