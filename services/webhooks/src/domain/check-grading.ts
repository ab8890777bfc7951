import type { AttemptResult } from './attempt-outcome.ts';
import type { CheckId } from './endpoint-check.ts';

/** Why no status came: the answer timeout passed, the connection failed, or the SSRF rules refused the host. */
export type NoAnswer = 'timeout' | 'connection_error' | 'refused';

export interface CheckAnswer {
  readonly eventType: string;
  readonly result: AttemptResult;
  readonly latencyMs: number;
}

export interface CheckResult {
  readonly id: CheckId;
  readonly title: string;
  readonly passed: boolean;
  readonly expected: '2xx' | '4xx';
  readonly statusCode: number | null;
  readonly error: NoAnswer | null;
  readonly latencyMs: number;
  readonly explanation: string;
  /** The guide's section for this check. */
  readonly guide: string;
}

interface Rule {
  readonly title: string;
  readonly expected: '2xx' | '4xx';
  /** What was sent, for the merchant. */
  readonly sent: string;
  readonly pass: string;
  /** What to change when the answer was a wrong status. */
  readonly fix: string;
}

const RULES: Record<CheckId, Rule> = {
  valid_signature: {
    title: 'Accepts a correctly signed delivery',
    expected: '2xx',
    sent: 'We sent a payment.started delivery signed with this endpoint’s secret, as every real delivery is.',
    pass: 'Your endpoint accepted it.',
    fix: 'Real deliveries would be refused and retried for days. Verify the raw request body (not JSON parsed and serialized again) with the endpoint’s current whsec_ secret, and answer 2xx to payments you do not know.',
  },
  invalid_signature: {
    title: 'Rejects a wrong signature',
    expected: '4xx',
    sent: 'We sent a payment.paid delivery signed with a secret that is not this endpoint’s, as a forger would.',
    pass: 'Your endpoint refused it.',
    fix: 'Anyone who knows your URL could fake a paid payment. Verify webhook-signature on every request before acting on the body, and answer 400 when it does not match.',
  },
  stale_timestamp: {
    title: 'Rejects an old timestamp',
    expected: '4xx',
    sent: 'We sent a payment.paid delivery correctly signed, but with a webhook-timestamp 10 minutes old.',
    pass: 'Your endpoint refused it.',
    fix: 'A delivery captured on the way could be replayed to you later. Refuse a webhook-timestamp more than 5 minutes from your clock (verifyWebhook and the standardwebhooks libraries do) and keep your server’s clock synchronised.',
  },
  replay: {
    title: 'Accepts a repeated event id',
    expected: '2xx',
    sent: 'We sent the correctly signed delivery again, same event id, newly signed, as a retry is.',
    pass: 'Your endpoint acknowledged it.',
    fix: 'Deliveries are at least once: the same event can arrive twice. Answer 2xx to an event id you already handled, without acting on it again.',
  },
  out_of_order: {
    title: 'Accepts events out of order',
    expected: '2xx',
    sent: 'We sent payment.paid of one payment, then its older payment.started.',
    pass: 'Your endpoint accepted both.',
    fix: 'Events can arrive in any order. Do not fail on an event that comes before another; when the current state matters, read the payment (GET /v1/payments/{id}).',
  },
  unknown_type: {
    title: 'Accepts an unknown event type',
    expected: '2xx',
    sent: 'We sent a correctly signed event of a type your code cannot know (check.unknown_type).',
    pass: 'Your endpoint acknowledged it.',
    fix: 'New event types may be added within v1. Answer 2xx to types you do not handle, and ignore them.',
  },
};

const guideOf = (id: CheckId): string => `docs/webhooks.md#check-${id.replaceAll('_', '-')}`;

function noAnswerOf(error: string): NoAnswer {
  if (error.startsWith('timeout')) return 'timeout';
  if (error.startsWith('refused:')) return 'refused';
  return 'connection_error';
}

/**
 * One check's verdict from the answers to its deliveries: passed when every answer has the expected
 * class within the timeout. The status reported is the first wrong answer's, else the last one's.
 */
export function gradeCheck(id: CheckId, answers: readonly CheckAnswer[], timeoutMs: number): CheckResult {
  const rule = RULES[id];
  const low = rule.expected === '2xx' ? 200 : 400;
  const right = (a: CheckAnswer): boolean => a.result.kind === 'response' && a.result.statusCode >= low && a.result.statusCode < low + 100;
  const deciding = answers.find((a) => !right(a)) ?? answers.at(-1);
  if (!deciding) throw new Error(`no answer to grade for check ${id}`);
  const passed = answers.every(right);
  const { result } = deciding;
  const about = answers.length > 1 ? ` to ${deciding.eventType}` : '';
  let outcome: string;
  let advice = passed ? rule.pass : rule.fix;
  if (result.kind === 'response') {
    outcome = `It answered HTTP ${result.statusCode}${about}.`;
    if (!passed && result.statusCode >= 300 && result.statusCode < 400)
      advice = 'Redirects are not followed: register the URL that answers.';
  } else if (noAnswerOf(result.error) === 'timeout') {
    outcome = `No answer came${about} within ${timeoutMs / 1000} s, the delivery timeout.`;
    advice = 'Answer fast: acknowledge first and do slow work afterwards, or every delivery is retried as failed.';
  } else {
    outcome = `No answer${about}: ${result.error}.`;
    advice = 'Make sure the URL is reachable from the internet and is not a private address (docs/webhooks.md#ssrf-rules).';
  }
  return {
    id,
    title: rule.title,
    passed,
    expected: rule.expected,
    statusCode: result.kind === 'response' ? result.statusCode : null,
    error: result.kind === 'error' ? noAnswerOf(result.error) : null,
    latencyMs: Math.max(...answers.map((a) => a.latencyMs)),
    explanation: `${rule.sent} ${outcome} ${advice}`,
    guide: guideOf(id),
  };
}
