import { ApiError } from '@hc/errors';
import { resolveTarget, TargetRefused } from '../adapters/target-resolver.ts';
import { MAX_DESCRIPTION_LENGTH, type Scope } from '../domain/endpoint.ts';
import { parseEndpointUrl } from '../domain/endpoint-url.ts';
import type { WebhooksDependencies } from './dependencies.ts';

/** Input checks shared by the endpoint verbs (create and update check a URL and a description the same way). */

/** The URL rules and the SSRF check at registration (the same check runs again at every delivery). */
export async function checkedUrl(deps: WebhooksDependencies, scope: Scope, raw: string): Promise<string> {
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

export function checkedDescription(description: string | undefined): string | null {
  if (description === undefined || description === '') return null;
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new ApiError('invalid_description', `description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`, 'description');
  }
  return description;
}
