import { describe, expect, it } from '@jest/globals';
import { newVerdictId, verdictFrom } from './verdict.ts';

const fields = { id: 'vrd_1', paymentId: 'pay_1', decidedAt: new Date('2026-03-01T12:00:00Z') };
const settlement = {
  coin: 'polygon_usdc',
  valueCoin: '5.000000',
  merchantReceived: null,
  txidIn: '0xa',
  txidOut: null,
  payoutWallet: null,
};

describe('verdicts', () => {
  it('have vrd_ ids that sort by decision time', () => {
    const first = newVerdictId(new Date('2026-03-01T12:00:00Z'));
    const second = newVerdictId(new Date('2026-03-01T12:00:01Z'));
    expect(first).toMatch(/^vrd_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(first < second).toBe(true);
  });

  it('carry a hold reason and acceptability only when held', () => {
    expect(verdictFrom({ kind: 'held', holdReason: 'short', holdAcceptable: true, settlement }, fields)).toEqual({
      ...fields,
      kind: 'held',
      holdReason: 'short',
      holdAcceptable: true,
      settlement,
    });
    expect(verdictFrom({ kind: 'paid', settlement }, fields)).toMatchObject({ kind: 'paid', holdReason: null, holdAcceptable: false });
    expect(verdictFrom({ kind: 'failed' }, fields)).toEqual({
      ...fields,
      kind: 'failed',
      holdReason: null,
      holdAcceptable: false,
      settlement: null,
    });
  });
});
