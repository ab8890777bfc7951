import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { resolveTarget, TargetRefused } from '../delivery/target-resolver.ts';
import { MAX_DESCRIPTION_LENGTH, type Scope, type WebhookEndpoint } from '../domain/endpoint.ts';
import { parseEndpointUrl } from '../domain/endpoint-url.ts';
import { parseEventFilter } from '../domain/event-types.ts';
import { newSigningSecret } from '../domain/signing.ts';
import type { EndpointPatch } from '../store/endpoints.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/** The URL rules and the SSRF check at registration (the same check runs again at every delivery). */
async function checkedUrl(deps: WebhooksDependencies, scope: Scope, raw: string): Promise<string> {
  const url = parseEndpointUrl(raw, scope.livemode);
  try {
    await resolveTarget(url, deps.resolver, deps.settings.allowPrivateTargets);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    const message =
      error.reason === 'unresolvable'
        ? `The URL's host does not resolve: ${error.message}.`
        : `The URL's host must be a public address: ${error.message}.`;
    throw new ApiError('invalid_url', message, 'url');
  }
  return url.href;
}

function checkedDescription(description: string | undefined): string | null {
  if (description === undefined || description === '') return null;
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new ApiError('invalid_description', `description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`, 'description');
  }
  return description;
}

export async function getEndpoint(deps: WebhooksDependencies, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await deps.endpoints.find(scope, id);
  if (!endpoint) throw new ApiError('not_found', 'No such webhook endpoint.', 'id');
  return endpoint;
}

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

export function listEndpoints(deps: WebhooksDependencies, scope: Scope): Promise<WebhookEndpoint[]> {
  return deps.endpoints.list(scope);
}

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

export async function setEndpointEnabled(deps: WebhooksDependencies, scope: Scope, id: string, enabled: boolean): Promise<WebhookEndpoint> {
  const endpoint = await getEndpoint(deps, scope, id);
  if ((endpoint.status === 'enabled') === enabled) return endpoint;
  return deps.endpoints.setStatus(id, enabled ? 'enabled' : 'disabled', deps.now());
}

export async function deleteEndpoint(deps: WebhooksDependencies, scope: Scope, id: string): Promise<void> {
  await getEndpoint(deps, scope, id);
  await deps.endpoints.softDelete(id, deps.now());
}

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
