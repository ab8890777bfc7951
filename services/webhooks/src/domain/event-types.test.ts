import { describe, expect, it } from '@jest/globals';
import { filterMatches, parseEventFilter } from './event-types.ts';

describe('event-type filters', () => {
  it('default to every type and keep known types once, in order', () => {
    expect(parseEventFilter([])).toEqual(['*']);
    expect(parseEventFilter(['*'])).toEqual(['*']);
    expect(parseEventFilter(['payment.paid', ' payment.held', 'payment.paid'])).toEqual(['payment.paid', 'payment.held']);
  });

  it('refuse unknown types, ping, and "*" mixed with types', () => {
    expect(() => parseEventFilter(['payment.paid', 'payment.refunded'])).toThrow(/payment\.refunded/);
    expect(() => parseEventFilter(['ping'])).toThrow(expect.objectContaining({ code: 'invalid_event_types', field: 'enabled_events' }));
    expect(() => parseEventFilter(['*', 'payment.paid'])).toThrow(expect.objectContaining({ code: 'invalid_event_types' }));
  });

  it('match by type or "*", never a ping', () => {
    expect(filterMatches(['*'], 'payment.expired')).toBe(true);
    expect(filterMatches(['payment.paid'], 'payment.paid')).toBe(true);
    expect(filterMatches(['payment.paid'], 'payment.started')).toBe(false);
    expect(filterMatches(['*'], 'ping')).toBe(false);
  });
});
