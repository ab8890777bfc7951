// Risk covered (issue 47 item 1, docs/adr/0081): a wallet-change notice that leaves out payments whose
// money will follow the new wallet — pending ones, those past the first page — or names ones that
// were never started (no deposit address, nothing to pay).
import { describe, expect, it } from '@jest/globals';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { listStartedUnpaid, type ListPage } from './list-started-unpaid.ts';

/** Checkout's list as it pages: newest first, `limit` at a time, filtered by status. */
function checkoutList(all: { id: string; status: 'open' | 'pending' | 'paid'; started: boolean }[]): ListPage {
  return async ({ limit, status, startingAfter }) => {
    const matching = all.filter((p) => p.status === status);
    const from = startingAfter ? matching.findIndex((p) => p.id === startingAfter) + 1 : 0;
    const page = matching.slice(from, from + limit);
    const data = page.map((p) => ({ id: p.id, status: p.status, startedAt: p.started ? 1795319832000n : undefined }) as Payment);
    return { data, hasMore: from + limit < matching.length };
  };
}

describe('listStartedUnpaid', () => {
  it('names pending payments and started open ones, on every page, and no open payment never started', async () => {
    const open = Array.from({ length: 130 }, (_, i) => ({ id: `pay_o${i}`, status: 'open' as const, started: i % 2 === 0 }));
    const list = checkoutList([
      { id: 'pay_p1', status: 'pending', started: true },
      { id: 'pay_paid', status: 'paid', started: true },
      ...open,
    ]);
    const ids = await listStartedUnpaid(list);
    expect(ids[0]).toBe('pay_p1');
    expect(ids).toHaveLength(1 + 65);
    expect(ids).toContain('pay_o128');
    expect(ids).not.toContain('pay_o1');
    expect(ids).not.toContain('pay_paid');
  });
});
