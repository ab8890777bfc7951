/**
 * What must be true once the faults are over and the platform has settled: every payment in exactly
 * the state its outcome implies, every expected webhook event delivered (0 lost) with one event id per
 * payment and transition (0 duplicated), customers' counters and `spent` equal to a recount from the
 * payments, and every answered create of one Idempotency-Key naming the same session.
 */
import { Decimal } from '@hc/money';
import { FINAL_EVENT, FINAL_STATUS, type DrivenPayment } from './payment-load.ts';
import type { ReceivedEvent } from './webhook-receiver.ts';

export interface Findings {
  wrongStatus: string[];
  lost: string[];
  duplicated: string[];
  unexpected: string[];
  wrongCustomers: string[];
  idempotencyBroken: string[];
}

export const noFindings = (f: Findings): boolean => Object.values(f).every((list: string[]) => list.length === 0);

export function expectedEvents(payment: DrivenPayment): string[] {
  return ['payment.started', FINAL_EVENT[payment.outcome]];
}

export function checkWebhooks(
  payments: DrivenPayment[],
  deliveries: readonly ReceivedEvent[],
): Pick<Findings, 'lost' | 'duplicated' | 'unexpected'> {
  const ids = new Map<string, Set<string>>();
  for (const d of deliveries) {
    if (!d.paymentId) continue;
    const key = `${d.paymentId} ${d.type}`;
    ids.set(key, (ids.get(key) ?? new Set()).add(d.id));
  }
  const lost: string[] = [];
  const duplicated: string[] = [];
  const expected = new Set<string>();
  for (const p of payments) {
    for (const type of expectedEvents(p)) {
      const key = `${p.id} ${type}`;
      expected.add(key);
      const seen = ids.get(key)?.size ?? 0;
      if (seen === 0) lost.push(key);
      if (seen > 1) duplicated.push(`${key}: ${[...ids.get(key)!].join(', ')}`);
    }
  }
  const unexpected = [...ids.keys()].filter((key) => !expected.has(key));
  return { lost, duplicated, unexpected };
}

export function checkStatuses(payments: DrivenPayment[], statuses: ReadonlyMap<string, string>): string[] {
  return payments
    .filter((p) => statuses.get(p.id!) !== FINAL_STATUS[p.outcome])
    .map((p) => `${p.id}: ${statuses.get(p.id!)} (expected ${FINAL_STATUS[p.outcome]})`);
}

export interface CustomerFigures {
  orders_count: number;
  paid_orders_count: number;
  spent: Record<string, string>;
}

/** The customer each email should be, recounted from the payments (docs/customers.md, Counters). */
export function recountCustomers(payments: DrivenPayment[]): Map<string, CustomerFigures> {
  const byEmail = new Map<string, CustomerFigures>();
  for (const p of payments) {
    const figures = byEmail.get(p.email) ?? { orders_count: 0, paid_orders_count: 0, spent: {} };
    figures.orders_count += 1;
    if (p.outcome === 'paid') {
      figures.paid_orders_count += 1;
      figures.spent['USD'] = new Decimal(figures.spent['USD'] ?? '0').plus(p.amount).toFixed(2);
    }
    byEmail.set(p.email, figures);
  }
  return byEmail;
}

export function checkIdempotency(payments: DrivenPayment[]): string[] {
  return payments
    .filter((p) => p.createAnswers.some((id) => id !== p.id))
    .map((p) => `${p.idempotencyKey}: ${[...new Set(p.createAnswers)].join(', ')}`);
}

export interface WebhookCounts {
  /** Distinct event ids received. */
  readonly events: number;
  /** `payment transition` pairs expected and never received. */
  readonly lost: string[];
  /** One payment and transition with more than one event id: the transition ran twice (e.g. two payment.expired). */
  readonly duplicatedEvents: string[];
  /** One event id delivered more than once to the one endpoint. */
  readonly duplicatedDeliveries: string[];
  /** Duplicated deliveries the fault run cannot explain (`explained`): two sends of one delivery. */
  readonly unexplainedDuplicates: string[];
  readonly unexpected: string[];
}

/**
 * The deliveries against the `payment transition` pairs expected. Deliveries are at least once
 * (docs/webhooks.md): an attempt whose success could not be recorded (its webhooks process killed, its
 * database away) is sent again when its lease runs out. `explained` gets the arrivals (ms since the
 * epoch) of an event id received more than once, and the id, and says whether a fault accounts for them.
 */
export function countWebhooks(
  deliveries: readonly ReceivedEvent[],
  expected: ReadonlySet<string>,
  explained: (arrivals: readonly number[], eventId: string) => boolean,
): WebhookCounts {
  const idsByTransition = new Map<string, Set<string>>();
  const arrivals = new Map<string, number[]>();
  for (const d of deliveries) {
    arrivals.set(d.id, [...(arrivals.get(d.id) ?? []), d.at]);
    if (!d.paymentId) continue;
    const key = `${d.paymentId} ${d.type}`;
    idsByTransition.set(key, (idsByTransition.get(key) ?? new Set()).add(d.id));
  }
  const duplicated = [...arrivals].filter(([, at]) => at.length > 1);
  const described = ([id, at]: [string, number[]]): string => `${id} ×${at.length} (${at.map((t) => t - at[0]!).join(', ')} ms)`;
  return {
    events: arrivals.size,
    lost: [...expected].filter((key) => !idsByTransition.has(key)),
    duplicatedEvents: [...idsByTransition].filter(([, ids]) => ids.size > 1).map(([key, ids]) => `${key}: ${[...ids].join(', ')}`),
    duplicatedDeliveries: duplicated.map(described),
    unexplainedDuplicates: duplicated.filter(([id, at]) => !explained(at, id)).map(described),
    unexpected: [...idsByTransition.keys()].filter((key) => !expected.has(key)),
  };
}

/**
 * A moment of `moments` (a kill of a webhooks copy, an attempt its worker logged as not recorded) between
 * the first arrival (less a second) and the last explains a redelivery.
 */
export const explainedBy =
  (moments: readonly number[]) =>
  (at: readonly number[]): boolean =>
    moments.some((moment) => moment >= at[0]! - 1_000 && moment <= at.at(-1)!);
