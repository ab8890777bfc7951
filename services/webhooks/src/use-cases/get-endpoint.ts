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
 * The refusal for a write that found endpoint `id` no longer enabled although it was a moment before
 * (disabled or deleted meanwhile): `not_found` if it is gone, as a request made after the delete is
 * answered, else `endpoint_disabled`.
 */
export async function refusalAfterRemoval(deps: WebhooksDependencies, scope: Scope, id: string): Promise<ApiError> {
  return (await deps.endpoints.find(scope, id))
    ? new ApiError('endpoint_disabled', undefined, 'endpoint_id')
    : new ApiError('not_found', 'No such webhook endpoint.', 'id');
}
