/**
 * A steady load of payments for the rolling-upgrade test, as careful merchants would send it: per
 * account, one request every `paceMs` (the account's limit is about 120 a minute), each iteration a
 * create (with an Idempotency-Key) and a read, every `paidEvery`-th iteration also start and simulate
 * paid (the limit is about 12 starts a minute). An answer a client may retry (no answer, 502, 503, 504)
 * is retried after 500 ms, up to 8 attempts; a start or simulate retried after a lost answer may find
 * its work done (409) and checks by reading. Every answer is counted; an operation that still fails, or
 * any other non-2xx answer, is a failure.
 */
import { randomUUID } from 'node:crypto';

export interface LoadAccount {
  id: string;
  key: string;
}
export interface LoadResult {
  /** Every session answered 201/200, with the key of its account. */
  created: Array<{ id: string; key: string }>;
  paid: string[];
  /** status (or "none" for no answer) → answers */
  answers: Map<string, number>;
  /** Operations that ended without success, with what they got last. */
  failures: string[];
}

/** Answers a careful client retries (none = no answer at all). */
export const RETRYABLE = new Set(['none', '502', '503', '504']);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function startSteadyLoad(
  url: string,
  accounts: LoadAccount[],
  options: { paceMs: number; paidEvery: number },
): { stop: () => Promise<LoadResult> } {
  const result: LoadResult = { created: [], paid: [], answers: new Map(), failures: [] };
  let running = true;

  async function call(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    let last = 'none';
    for (let attempt = 1; attempt <= 8; attempt++) {
      let status = 'none';
      let json: Record<string, unknown> = {};
      try {
        const response = await fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
        status = String(response.status);
        json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      } catch {
        // No answer (refused, reset, timed out): retried like a 503.
      }
      result.answers.set(status, (result.answers.get(status) ?? 0) + 1);
      last = status;
      if (!RETRYABLE.has(status)) return { status: Number(status), json, attempts: attempt };
      await sleep(500);
    }
    return { status: 0, json: { last }, attempts: 8 };
  }

  async function iteration(account: LoadAccount, n: number, pace: () => Promise<void>): Promise<void> {
    const session = {
      amount: '4.10',
      currency: 'eur',
      description: `Upgrade ${n}`,
      customer_email: `u${n}@example.com`,
      reference: `UP-${n}`,
    };
    const created = await call(account.key, 'POST', '/v1/checkout_sessions', session, { 'idempotency-key': randomUUID() });
    if (created.status !== 201 && created.status !== 200)
      return void result.failures.push(`create: ${created.status} ${JSON.stringify(created.json)}`);
    const id = String(created.json['id']);
    result.created.push({ id, key: account.key });
    await pace();
    if (n % options.paidEvery === 0) {
      const started = await call(account.key, 'POST', `/v1/checkout_sessions/${id}/start`, { country: 'de' });
      const startDone =
        started.status === 200 || (started.status === 409 && started.attempts > 1 && (await read(account, id))['started_at'] != null);
      if (!startDone) return void result.failures.push(`start ${id}: ${started.status} ${JSON.stringify(started.json)}`);
      await pace();
      const paid = await call(account.key, 'POST', `/v1/payments/${id}/simulate`, { outcome: 'paid' });
      const paidDone = paid.status === 200 || (paid.status === 409 && paid.attempts > 1 && (await read(account, id))['status'] === 'paid');
      if (!paidDone) return void result.failures.push(`simulate ${id}: ${paid.status} ${JSON.stringify(paid.json)}`);
      result.paid.push(id);
      await pace();
    }
    const got = await call(account.key, 'GET', `/v1/checkout_sessions/${id}`);
    if (got.status !== 200) result.failures.push(`read ${id}: ${got.status} ${JSON.stringify(got.json)}`);
    await pace();
  }

  async function read(account: LoadAccount, id: string): Promise<Record<string, unknown>> {
    return (await call(account.key, 'GET', `/v1/checkout_sessions/${id}`)).json;
  }

  let sequence = 0;
  const workers = accounts.map(async (account) => {
    let next = Date.now();
    const pace = async (): Promise<void> => {
      next = Math.max(next + options.paceMs, Date.now());
      await sleep(next - Date.now());
    };
    while (running) await iteration(account, ++sequence, pace);
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return result;
    },
  };
}

/** "201: 40, 200: 120, 503: 2" */
export function describeAnswers(answers: Map<string, number>): string {
  return [...answers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
}
