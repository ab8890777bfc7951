import { describe, expect, it } from '@jest/globals';
import { SessionStatus } from '@hc/proto/checkout/v1';
import {
  fromUnixSeconds,
  isSessionStatusName,
  SESSION_STATUS_NAMES,
  sessionStatusName,
  sessionStatusOf,
  unixSeconds,
  unixSecondsBig,
} from './index.ts';

describe('unix seconds', () => {
  it('round a moment down, never up', () => {
    expect(unixSeconds(new Date('2026-11-25T01:02:03.999Z'))).toBe(1795568523);
    expect(unixSecondsBig(new Date('2026-11-25T01:02:03.001Z'))).toBe(1795568523n);
    expect(unixSeconds(new Date(-1))).toBe(-1);
  });

  it('read back from an API number or a proto int64 to the same second', () => {
    const at = new Date('2026-11-25T01:02:03Z');
    expect(fromUnixSeconds(unixSeconds(at)).toISOString()).toBe(at.toISOString());
    expect(fromUnixSeconds(unixSecondsBig(at)).toISOString()).toBe(at.toISOString());
  });
});

describe('session status words', () => {
  it('name every status as the API writes it, and map each word back', () => {
    expect(SESSION_STATUS_NAMES.map((name) => sessionStatusName(sessionStatusOf(name)))).toEqual([...SESSION_STATUS_NAMES]);
    expect(sessionStatusName(SessionStatus.HELD)).toBe('held');
  });

  it('leave UNSPECIFIED and an unknown number unnamed, so no reader guesses', () => {
    expect(sessionStatusName(SessionStatus.UNSPECIFIED)).toBeUndefined();
    expect(sessionStatusName(99 as SessionStatus)).toBeUndefined();
  });

  it('recognise only the API words', () => {
    expect(isSessionStatusName('paid')).toBe(true);
    expect(isSessionStatusName('canceled')).toBe(false);
    expect(isSessionStatusName(3)).toBe(false);
  });
});
