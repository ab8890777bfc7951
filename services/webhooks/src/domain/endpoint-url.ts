import { ApiError } from '@hc/errors';

export const MAX_URL_LENGTH = 1000;

/**
 * The URL rules checked when an endpoint is registered or changed: a full absolute http(s) URL of
 * at most 1000 characters, https only in Live (a Test endpoint may be plain http, for local
 * development), no user name or password in it. Where the host points to is checked separately
 * (target-policy.ts), at registration and again at every delivery.
 */
export function parseEndpointUrl(raw: string, livemode: boolean): URL {
  const invalid = (message: string): ApiError => new ApiError('invalid_url', message, 'url');
  if (raw.length === 0 || raw.length > MAX_URL_LENGTH) throw invalid(`The URL must be 1 to ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('The URL is not a full http(s) address.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('The URL must start with https:// (or http:// in Test mode).');
  if (livemode && url.protocol !== 'https:') throw invalid('Live endpoints must use https://.');
  if (url.username !== '' || url.password !== '') throw invalid('The URL must not contain a user name or password.');
  if (url.hostname === '') throw invalid('The URL has no host.');
  return url;
}
