// Risk covered: a wallet-change notice that hides what changed (a shortened address a person cannot
// check, a missing actor or time), or a form value read as a wallet when it means "none".
import { describe, expect, it } from '@jest/globals';
import { affectedText, AFFECTED_SHOWN, noticeText, startedUnpaid, walletOf, type SecurityNotice } from './security-notice.ts';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const notice = (oldValue: string | null, newValue: string | null): SecurityNotice => ({
  id: '1',
  kind: 'payout_wallet_changed',
  actorEmail: 'you@shop.example',
  oldValue,
  newValue,
  affectedPaymentIds: [],
  affectedCount: 0,
  createdAt: new Date('2026-11-23T05:03:00.000Z'),
});

describe('noticeText', () => {
  it('names both full addresses, who and when', () => {
    expect(noticeText(notice(A, B))).toBe(`The payout wallet was changed from ${A} to ${B} by you@shop.example at 23 Nov 2026, 05:03 UTC.`);
  });

  it('says when a wallet was first set or removed', () => {
    expect(noticeText(notice(null, B))).toBe(`The payout wallet was set to ${B} by you@shop.example at 23 Nov 2026, 05:03 UTC.`);
    expect(noticeText(notice(A, null))).toBe(`The payout wallet ${A} was removed by you@shop.example at 23 Nov 2026, 05:03 UTC.`);
  });
});

describe('walletOf', () => {
  it('trims, and reads an empty field as no wallet', () => {
    expect(walletOf(`  ${A} `)).toBe(A);
    expect(walletOf('   ')).toBeNull();
  });
});

describe('affectedText (docs/adr/0081: started, unpaid payments follow the wallet of their forwarding)', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `pay_${i}`);

  it('says nothing when no payment was started and unpaid at the change', () => {
    expect(affectedText(notice(A, B))).toBeNull();
  });

  it('names how many, what happens to their money, and what the merchant may do', () => {
    expect(affectedText({ ...notice(A, B), ...startedUnpaidFields(ids(1)) })).toBe(
      '1 Live payment was started and not yet paid at the change; its money goes to the wallet the account has when it arrives. ' +
        'Cancel any payment link among them you do not recognise:',
    );
    expect(affectedText({ ...notice(A, B), ...startedUnpaidFields(ids(25)) })).toBe(
      '25 Live payments were started and not yet paid at the change; their money goes to the wallet the account has when it arrives. ' +
        `Cancel any payment link among them you do not recognise (the first ${AFFECTED_SHOWN} are listed):`,
    );
  });

  it('says to check the payments when they could not be listed', () => {
    expect(affectedText({ ...notice(A, B), affectedCount: null })).toContain('check them under Payments');
  });
});

function startedUnpaidFields(all: string[]): Pick<SecurityNotice, 'affectedPaymentIds' | 'affectedCount'> {
  const { ids, count } = startedUnpaid(all);
  return { affectedPaymentIds: ids, affectedCount: count };
}
