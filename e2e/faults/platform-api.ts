/**
 * The public API of a disposable platform as the fault tests read it after (and between) faults: one
 * call that never throws (no answer is status 0), the wait until the platform answers again, the
 * payments made due for expiry, and every payment's final status read back.
 */
import pg from 'pg';
import { eventually } from '@hc/test-kit';
import { FINAL_EVENT, FINAL_STATUS, type DrivenPayment } from './payment-load.ts';

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface PlatformApi {
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer>;
  /** Resolves once the gateway is ready and a read is served (at most 90 s). */
  recovered(): Promise<void>;
}

export function platformApi(gatewayUrl: string, key: string): PlatformApi {
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> => {
    try {
      const response = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
    } catch {
      return { status: 0, body: {} };
    }
  };
  return {
    call,
    async recovered() {
      await eventually(
        async () =>
          (await fetch(`${gatewayUrl}/readyz`).catch(() => null))?.status === 200 &&
          (await call('GET', '/v1/payments?limit=1')).status === 200,
        (ok) => ok,
        90_000,
      );
    },
  };
}

export interface ExpiringPayment {
  readonly id: string;
  /** Half of them are started before they expire (payment.started, then payment.expired). */
  readonly started: boolean;
}

/** `count` payments left to expire: created (every other one started); makeDue() then makes them due. */
export async function createExpiring(api: PlatformApi, count: number, emails: readonly string[]): Promise<ExpiringPayment[]> {
  const made: ExpiringPayment[] = [];
  for (let i = 0; i < count; i += 1) {
    const body = { amount: '5.00', currency: 'USD', description: 'Expiry under faults', customer_email: emails[i % emails.length] };
    const created = await eventually(
      () => api.call('POST', '/v1/checkout_sessions', body),
      (answer) => answer.status === 201,
      30_000,
    );
    if (created.status !== 201) throw new Error(`create answered ${created.status} ${JSON.stringify(created.body)}`);
    const id = String(created.body['id']);
    const started = i % 2 === 0;
    if (started) {
      const start = await eventually(
        () => api.call('POST', `/v1/checkout_sessions/${id}/start`, {}),
        (answer) => answer.status === 200,
        30_000,
      );
      if (start.status !== 200) throw new Error(`start answered ${start.status} ${JSON.stringify(start.body)}`);
    }
    made.push({ id, started });
  }
  return made;
}

/** The payments' expiry moved into the past in checkout's database: every expiry sweeper may take them now. */
export async function makeDue(checkoutDatabaseUrl: string, payments: readonly ExpiringPayment[]): Promise<void> {
  const db = new pg.Client({ connectionString: checkoutDatabaseUrl });
  await db.connect();
  try {
    await db.query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = ANY($1::text[])`, [
      payments.map((p) => p.id),
    ]);
  } finally {
    await db.end();
  }
}

/**
 * Reads every payment until each is in the status `expected` names (at most `timeoutMs`); what is still
 * wrong then, as `id: status (expected …)`.
 */
export async function readFinalStatuses(api: PlatformApi, expected: ReadonlyMap<string, string>, timeoutMs: number): Promise<string[]> {
  const statuses = new Map<string, string>();
  const wrong = () =>
    [...expected]
      .filter(([id, status]) => statuses.get(id) !== status)
      .map(([id, status]) => `${id}: ${statuses.get(id)} (expected ${status})`);
  return eventually(
    async () => {
      for (const [id, status] of expected) {
        if (statuses.get(id) === status) continue;
        const read = await api.call('GET', `/v1/payments/${id}`);
        if (read.status === 200) statuses.set(id, String(read.body['status']));
      }
      return wrong();
    },
    (still) => still.length === 0,
    timeoutMs,
  );
}

/**
 * What the completed payments and the expired ones must end as: each payment's final status, and the
 * `payment transition` pairs their webhook events must cover (one event each).
 */
export function expectedOutcomes(
  done: readonly DrivenPayment[],
  expiring: readonly ExpiringPayment[],
): { statuses: Map<string, string>; transitions: Set<string> } {
  return {
    statuses: new Map([...done.map((p) => [p.id!, FINAL_STATUS[p.outcome]] as const), ...expiring.map((e) => [e.id, 'expired'] as const)]),
    transitions: new Set([
      ...done.flatMap((p) => [`${p.id} payment.started`, `${p.id} ${FINAL_EVENT[p.outcome]}`]),
      ...expiring.flatMap((e) => [...(e.started ? [`${e.id} payment.started`] : []), `${e.id} payment.expired`]),
    ]),
  };
}
