import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import { newSigningSecret } from '../domain/signing.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { getEndpoint } from './get-endpoint.ts';

/** A new current secret; the previous one keeps signing for WEBHOOKS_SECRET_OVERLAP. */
export async function rotateEndpointSecret(
  deps: WebhooksDependencies,
  scope: Scope,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string; previousSecretExpiresAt: Date }> {
  const endpoint = await getEndpoint(deps, scope, id);
  const now = deps.now();
  const previousSecretExpiresAt = new Date(now.getTime() + deps.settings.secretOverlapMs);
  const secret = newSigningSecret();
  await deps.endpoints.rotateSecret(id, secret, now, previousSecretExpiresAt);
  return { endpoint, secret, previousSecretExpiresAt };
}
