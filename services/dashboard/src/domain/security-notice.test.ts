// Risk covered: a wallet-change notice that hides what changed (a shortened address a person cannot
// check, a missing actor or time), or a form value read as a wallet when it means "none".
import { describe, expect, it } from '@jest/globals';
import { noticeText, walletOf, type SecurityNotice } from './security-notice.ts';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const notice = (oldValue: string | null, newValue: string | null): SecurityNotice => ({
  id: '1',
  kind: 'payout_wallet_changed',
  actorEmail: 'you@shop.example',
  oldValue,
  newValue,
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
