import { describe, expect, it } from '@jest/globals';
import { API_ERRORS, ApiError, httpStatusOf, isErrorCode } from './index.ts';

describe('error catalogue', () => {
  it('maps the spec codes to their HTTP statuses', () => {
    expect(httpStatusOf('invalid_amount')).toBe(400);
    expect(httpStatusOf('invalid_api_key')).toBe(401);
    expect(httpStatusOf('suspended')).toBe(403);
    expect(httpStatusOf('not_found')).toBe(404);
    expect(httpStatusOf('no_payout_wallet')).toBe(409);
    expect(httpStatusOf('expired')).toBe(410);
    expect(httpStatusOf('payload_too_large')).toBe(413);
    expect(httpStatusOf('unsupported_media_type')).toBe(415);
    expect(httpStatusOf('rate_limited')).toBe(429);
    expect(httpStatusOf('network_unavailable')).toBe(502);
    expect(httpStatusOf('catching_up')).toBe(503);
  });

  it('gives every code a message and a non-OK gRPC status', () => {
    for (const spec of Object.values(API_ERRORS)) {
      expect(spec.message.length).toBeGreaterThan(0);
      expect(spec.grpc).toBeGreaterThan(0);
    }
  });

  it('recognises only codes of the catalogue', () => {
    expect(isErrorCode('invalid_json')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('nope')).toBe(false);
  });

  it('renders the spec body, with field only when there is one', () => {
    expect(new ApiError('invalid_amount', undefined, 'amount').toBody()).toEqual({
      error: { code: 'invalid_amount', message: API_ERRORS.invalid_amount.message, field: 'amount' },
    });
    expect(new ApiError('not_found').toBody().error).not.toHaveProperty('field');
  });
});
