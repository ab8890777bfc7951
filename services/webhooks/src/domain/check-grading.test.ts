import { describe, expect, it } from '@jest/globals';
import type { AttemptResult } from './attempt-outcome.ts';
import { gradeCheck, type CheckAnswer } from './check-grading.ts';
import { checkPlan, STALE_BY_MS } from './endpoint-check.ts';

const answer = (result: AttemptResult | number, eventType = 'payment.paid', latencyMs = 5): CheckAnswer => ({
  eventType,
  latencyMs,
  result: typeof result === 'number' ? { kind: 'response', statusCode: result, retryAfter: undefined, snippet: '' } : result,
});

describe('grading a check', () => {
  it('wants 4xx for the forged and the stale delivery, 2xx for the rest', () => {
    expect(gradeCheck('invalid_signature', [answer(401)], 1000).passed).toBe(true);
    expect(gradeCheck('invalid_signature', [answer(200)], 1000).passed).toBe(false);
    expect(gradeCheck('stale_timestamp', [answer(500)], 1000).passed).toBe(false);
    expect(gradeCheck('unknown_type', [answer(204)], 1000).passed).toBe(true);
    expect(gradeCheck('replay', [answer(409)], 1000).passed).toBe(false);
  });

  it('reports the first wrong answer of a check with two deliveries, and the slowest latency', () => {
    const result = gradeCheck('out_of_order', [answer(200, 'payment.paid', 40), answer(500, 'payment.started', 7)], 1000);
    expect(result).toMatchObject({ passed: false, statusCode: 500, error: null, latencyMs: 40 });
    expect(result.explanation).toMatch(/answered HTTP 500 to payment\.started\. Events can arrive in any order/);
    expect(result.guide).toBe('docs/webhooks.md#check-out-of-order');
  });

  it('names the timeout, a connection error, an SSRF refusal and a redirect in plain words', () => {
    const late = gradeCheck('valid_signature', [answer({ kind: 'error', error: 'timeout after 1000 ms' })], 1000);
    expect(late).toMatchObject({ passed: false, statusCode: null, error: 'timeout' });
    expect(late.explanation).toMatch(/within 1 s, the delivery timeout\. Answer fast/);
    expect(gradeCheck('replay', [answer({ kind: 'error', error: 'ECONNREFUSED' })], 1000).error).toBe('connection_error');
    expect(gradeCheck('replay', [answer({ kind: 'error', error: 'refused: x resolves to 10.0.0.1' })], 1000).error).toBe('refused');
    expect(gradeCheck('replay', [answer(302)], 1000).explanation).toMatch(/Redirects are not followed/);
  });
});

describe('the plan', () => {
  it('sends seven check deliveries in two rounds, marked, the stale one 10 minutes old, the replay with the same id', () => {
    const now = Date.UTC(2026, 10, 29, 9, 0, 0);
    const ids = { events: ['A', 'B', 'C', 'D', 'E', 'F'], payments: ['P', 'Q'] } as const;
    const [first, second] = checkPlan(now, ids);
    expect(first.map((d) => d.check)).toEqual(['valid_signature', 'invalid_signature', 'stale_timestamp', 'out_of_order']);
    expect(second.map((d) => d.check)).toEqual(['replay', 'out_of_order', 'unknown_type']);
    expect(second[0]!.body).toBe(first[0]!.body);
    expect([...first, ...second].every((d) => d.body.id.startsWith('evt_check_') && d.body.livemode === false)).toBe(true);
    expect(first[2]!.body.created).toBe((now - STALE_BY_MS) / 1000);
    expect([first[3]!.body.type, second[1]!.body.type]).toEqual(['payment.paid', 'payment.started']);
    expect(first[3]!.body.data.payment.id).toBe(second[1]!.body.data.payment.id);
  });
});
