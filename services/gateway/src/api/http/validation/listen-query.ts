import { ApiError } from '@hc/errors';
import { optionalQueryString } from './payment-schemas.ts';

/** The longest a GET /v1/listen waits for an event (below common proxies' 30 s idle limits). */
export const LISTEN_MAX_WAIT_SECONDS = 25;

/** `wait`: whole seconds 0 to 25 (default 25); anything else is invalid_request (field wait). */
export function waitQuery(query: Record<string, unknown>): number {
  const raw = optionalQueryString(query, 'wait', 'invalid_request');
  if (raw === undefined) return LISTEN_MAX_WAIT_SECONDS;
  if (!/^[0-9]{1,2}$/.test(raw) || Number(raw) > LISTEN_MAX_WAIT_SECONDS) {
    throw new ApiError('invalid_request', `wait must be whole seconds, 0 to ${LISTEN_MAX_WAIT_SECONDS}.`, 'wait');
  }
  return Number(raw);
}
