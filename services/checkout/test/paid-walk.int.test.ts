// Risk covered: a settlement statement that puts a payment on the day it was created rather than paid,
// skips or repeats payments across its pages, or reads another account's or mode's payments
// (docs/adr/0061). The statement's walk on real PostgreSQL, on the partial index of paid payments.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { UNSTARTED, type Payment } from '../src/domain/payment.ts';
import { NO_CUSTOMER_DETAILS } from '../src/domain/order-customer.ts';
import { sessionCreatedEvent } from '../src/domain/session-events.ts';
import type { PaymentStore } from '../src/store/payments.ts';
import type { CheckoutDatabase } from '../src/store/prisma.ts';
import { startPaymentStore } from './support/payment-store.ts';

let database: CheckoutDatabase;
let store: PaymentStore;
let stop: () => Promise<void>;
const scope = { accountId: 'acct_paidwalk', livemode: false };
let sequence = 0;

beforeAll(async () => {
  ({ database, store, stop } = await startPaymentStore());
});
afterAll(() => stop());

const at = (iso: string) => new Date(iso);

async function payment(createdAt: string, paidAt: string | null, overrides: Partial<Payment> = {}): Promise<string> {
  sequence += 1;
  const s: Payment = {
    ...UNSTARTED,
    id: `pay_paidwalk${String(sequence).padStart(4, '0')}`,
    ...scope,
    status: paidAt ? 'paid' : 'open',
    amount: '20.00',
    currency: 'EUR',
    description: 'Lamp',
    reference: 'ORD-1',
    customerEmail: 'ann@example.com',
    metadata: {},
    successUrl: 'https://shop.example/ok',
    cancelUrl: 'https://shop.example/cancel',
    locale: null,
    pageLocale: null,
    merchantName: 'Lamp shop',
    createdAt: at(createdAt),
    expiresAt: new Date(at(createdAt).getTime() + 3_600_000),
    paidAt: paidAt ? at(paidAt) : null,
    usdValue: '21.60',
    settlement: { coin: 'USDC', valueCoin: '20.952', merchantReceived: '20.63772', txidIn: 'in', txidOut: 'out' },
    ...overrides,
  };
  await store.insert(s, sessionCreatedEvent(s, NO_CUSTOMER_DETAILS));
  return s.id;
}

it('walks the paid payments of a period by paid_at, oldest first, a page after another, in one scope only', async () => {
  const day2 = { from: at('2026-11-02T00:00:00Z'), until: at('2026-11-03T00:00:00Z') };
  const lateNight = await payment('2026-11-01T23:59:30Z', '2026-11-02T00:00:30Z'); // created day 1, paid day 2
  const a = await payment('2026-11-02T08:00:00Z', '2026-11-02T08:01:00Z');
  const b = await payment('2026-11-02T07:00:00Z', '2026-11-02T08:01:00Z'); // same paid_at as a: ties by id
  const c = await payment('2026-11-02T23:59:00Z', '2026-11-02T23:59:59.999Z');
  await payment('2026-11-02T23:59:50Z', '2026-11-03T00:00:10Z'); // created day 2, paid day 3
  await payment('2026-11-02T09:00:00Z', null); // never paid
  await payment('2026-11-02T09:00:00Z', '2026-11-02T09:01:00Z', { accountId: 'acct_other' });
  await payment('2026-11-02T09:00:00Z', '2026-11-02T09:01:00Z', { livemode: true });

  const walked: Payment[] = [];
  let after: Payment | undefined;
  for (;;) {
    const page = await store.listPaid(scope, 2, day2, after);
    walked.push(...page);
    if (page.length < 2) break;
    after = page[page.length - 1];
  }
  expect(walked.map((p) => p.id)).toEqual([lateNight, a, b, c]);
  expect(walked.map((p) => p.usdValue)).toEqual(['21.60', '21.60', '21.60', '21.60']);

  // Day 1 has nothing: the payment created then was paid on day 2.
  expect(await store.listPaid(scope, 10, { from: at('2026-11-01T00:00:00Z'), until: day2.from })).toEqual([]);
  // The walk's statement can run on the partial index (a tiny table would otherwise be scanned whole).
  const client = await database.pool.connect();
  const plan = await client
    .query<{ 'QUERY PLAN': string }>('SET enable_seqscan = off')
    .then(() =>
      client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM checkout_sessions WHERE account_id = 'acct_paidwalk' AND livemode = false AND status = 'paid'
           AND paid_at >= '2026-11-02' AND paid_at < '2026-11-03' ORDER BY paid_at, id LIMIT 500`,
      ),
    )
    .finally(() => client.query('RESET enable_seqscan').finally(() => client.release()));
  expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('checkout_sessions_account_mode_paid_idx');
});
