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
