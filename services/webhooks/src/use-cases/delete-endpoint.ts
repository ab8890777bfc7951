import type { Scope } from '../domain/endpoint.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { getEndpoint } from './get-endpoint.ts';

export async function deleteEndpoint(deps: WebhooksDependencies, scope: Scope, id: string): Promise<void> {
  await getEndpoint(deps, scope, id);
  await deps.endpoints.softDelete(id, deps.now());
}
