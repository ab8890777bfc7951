/**
 * A steady load of Test payments through the public API, as merchants' servers send it while faults
 * happen: create (with an Idempotency-Key) → start → simulate, each step retried with the same key or
 * on the same payment until the platform answers it, the way a careful client retries. Records what
 * each payment should end as and every answer a create got (to prove idempotent retries returned the
 * first session).
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { NoAnswer, postJson, type LoadAnswer } from './load-http.ts';

export type Outcome = 'paid' | 'underpaid' | 'failed';
export const FINAL_STATUS: Record<Outcome, string> = { paid: 'paid', underpaid: 'held', failed: 'failed' };
export const FINAL_EVENT: Record<Outcome, string> = { paid: 'payment.paid', underpaid: 'payment.held', failed: 'payment.failed' };

export interface DrivenPayment {
  readonly idempotencyKey: string;
  readonly email: string;
  readonly amount: string;
  readonly outcome: Outcome;
  /** The session id of every successful create answer (all must be equal). */
  readonly createAnswers: string[];
  id?: string;
  /** Taken by the load (one stopped by `until` leaves the rest untaken). */
  driven: boolean;
  /** Attempts that got no answer or a retryable one (5xx, 409 in progress, network). */
  retries: number;
  done: boolean;
}

export interface LoadOptions {
  readonly gatewayUrl: string;
  readonly key: string;
  readonly payments: number;
  readonly concurrency: number;
  readonly emails: readonly string[];
  readonly rng: RandomGenerator;
  readonly label: string;
  /** Gives up on a step after this long (a platform that never recovers fails the suite). */
  readonly stepDeadlineMs: number;
  /** Told of every attempt's answer (status 0: none within the client's 15 s), e.g. to check that only documented ones came. */
  readonly onAnswer?: (answer: AnswerSeen) => void;
  /** When it says true, no further payment is taken (those under way finish): a load as long as the faults. */
  readonly until?: () => boolean;
}

export interface AnswerSeen {
  readonly step: 'create' | 'start' | 'simulate';
  /** 0 when no answer came (connection failed, or nothing within 15 s). */
  readonly status: number;
  /** The error's `code`, when the answer was an error; with no answer, why the connection failed (e.g. `ECONNRESET`). */
  readonly code: string;
  readonly at: number;
  readonly ms: number;
}

class StepFailed extends Error {}

/** One POST of the load, on a connection of its own (load-http.ts); null when no answer came. */
async function call(
  options: LoadOptions,
  step: AnswerSeen['step'],
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LoadAnswer | null> {
  const at = Date.now();
  let answer: LoadAnswer | null;
  let failure = '';
  try {
    answer = await postJson(`${options.gatewayUrl}${path}`, { authorization: `Bearer ${options.key}`, ...headers }, body, 15_000);
  } catch (error) {
    answer = null;
    failure = error instanceof NoAnswer ? error.code : String(error);
  }
  const code = answer ? String((answer.body['error'] as { code?: string } | undefined)?.code ?? '') : failure;
  options.onAnswer?.({ step, status: answer?.status ?? 0, code, at, ms: Date.now() - at });
  return answer;
}

/**
 * Retries `attempt` until it answers something final: no answer, 5xx, 429 and 409
 * `idempotency_conflict` are retried (the load always resends the same body with a key, so that 409 can
 * only be the spec's "a concurrent first request still running (retry shortly)").
 */
async function untilAnswered(
  payment: DrivenPayment,
  deadlineMs: number,
  attempt: () => Promise<{ status: number; body: Record<string, unknown> } | null>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const deadline = Date.now() + deadlineMs;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    const answer = await attempt();
    const code = String((answer?.body['error'] as { code?: string } | undefined)?.code ?? '');
    const retryable =
      answer === null || answer.status >= 500 || answer.status === 429 || (answer.status === 409 && code === 'idempotency_conflict');
    if (!retryable) return answer;
    payment.retries += 1;
    if (Date.now() > deadline)
      throw new StepFailed(`no answer within ${deadlineMs} ms (last: ${answer ? `${answer.status} ${code}` : 'no answer'})`);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function drive(options: LoadOptions, payment: DrivenPayment): Promise<void> {
  const created = await untilAnswered(payment, options.stepDeadlineMs, async () => {
    const answer = await call(
      options,
      'create',
      '/v1/checkout_sessions',
      { amount: payment.amount, currency: 'USD', description: 'Fault suite order', customer_email: payment.email },
      { 'idempotency-key': payment.idempotencyKey },
    );
    if (answer && (answer.status === 201 || answer.status === 200)) payment.createAnswers.push(String(answer.body['id']));
    return answer;
  });
  if (created.status !== 201 && created.status !== 200)
    throw new StepFailed(`create answered ${created.status} ${JSON.stringify(created.body)}`);
  payment.id = String(created.body['id']);
  const started = await untilAnswered(payment, options.stepDeadlineMs, () =>
    call(options, 'start', `/v1/checkout_sessions/${payment.id}/start`, {}),
  );
  if (started.status !== 200) throw new StepFailed(`start answered ${started.status} ${JSON.stringify(started.body)}`);
  const simulated = await untilAnswered(payment, options.stepDeadlineMs, () =>
    call(options, 'simulate', `/v1/payments/${payment.id}/simulate`, { outcome: payment.outcome }),
  );
  if (simulated.status !== 200) throw new StepFailed(`simulate answered ${simulated.status} ${JSON.stringify(simulated.body)}`);
  payment.done = true;
}

/** Plans every payment up front (so a seed replays the same load), then drives them `concurrency` at a time. */
export function planPayments(options: LoadOptions): DrivenPayment[] {
  const outcomes: Outcome[] = ['paid', 'paid', 'underpaid', 'failed'];
  return Array.from({ length: options.payments }, (_, i) => ({
    idempotencyKey: `${options.label}-${i}`,
    email: options.emails[uniformInt(options.rng, 0, options.emails.length - 1)]!,
    amount: `${uniformInt(options.rng, 1, 500)}.${String(uniformInt(options.rng, 0, 99)).padStart(2, '0')}`,
    outcome: outcomes[uniformInt(options.rng, 0, outcomes.length - 1)]!,
    createAnswers: [],
    driven: false,
    retries: 0,
    done: false,
  }));
}

export async function runLoad(options: LoadOptions, payments: DrivenPayment[]): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < payments.length && !options.until?.()) {
      const payment = payments[next++]!;
      payment.driven = true;
      try {
        await drive(options, payment);
      } catch (error) {
        failures.push(`${payment.idempotencyKey} (${payment.id ?? 'not created'}): ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return failures;
}
