import { describe, expect, it } from '@jest/globals';
import { judgeArrival, judgeDecline, normalizeArrival, type Arrival, type ArrivalEvidence } from './settlement-checks.ts';

const WALLET = '0x1111111111111111111111111111111111111111';
const DEPOSIT = '0xd000000000000000000000000000000000000001';
const TXID_IN = `0x${'a'.repeat(64)}`;
const TXID_OUT = `0x${'b'.repeat(64)}`;

// A Test-mode lock (no deposit address) of 10.00 USD at a 1.5% fee, and a Live one.
const testLock = { depositAddress: null, payoutWallet: WALLET, feeBps: 150, usdValue: '10.00' };
const liveLock = { ...testLock, depositAddress: DEPOSIT };
const fresh: ArrivalEvidence = { txidUsedBefore: false };

function arrival(change: Partial<Arrival> = {}): Arrival {
  return {
    txidIn: TXID_IN,
    coin: 'polygon_usdc',
    valueCoin: '9.700000',
    toAddress: null,
    forwardedTo: WALLET,
    txidOut: TXID_OUT,
    ...change,
  };
}

describe('an arrival that passes every check', () => {
  it('is paid, with what arrived and what the merchant received after the fee', () => {
    expect(judgeArrival(testLock, arrival(), fresh)).toEqual({
      kind: 'paid',
      settlement: {
        coin: 'polygon_usdc',
        valueCoin: '9.700000',
        merchantReceived: '9.554500',
        txidIn: TXID_IN,
        txidOut: TXID_OUT,
        payoutWallet: WALLET,
      },
    });
  });

  it('counts USDT 1:1 as USD too', () => {
    expect(judgeArrival(testLock, arrival({ coin: 'polygon_usdt' }), fresh).kind).toBe('paid');
  });

  it('shows amounts with six decimals however the processor wrote them', () => {
    const decision = judgeArrival(testLock, arrival({ valueCoin: '9.7' }), fresh);
    expect(decision.kind === 'paid' && decision.settlement.valueCoin).toBe('9.700000');
  });

  it('matches a Live deposit address and wallet whatever their letter case', () => {
    const decision = judgeArrival(
      { ...liveLock, payoutWallet: '0xAbCdEf0000000000000000000000000000000000' },
      arrival({ toAddress: DEPOSIT.toUpperCase().replace('0X', '0x'), forwardedTo: '0xabcdef0000000000000000000000000000000000' }),
      fresh,
    );
    expect(decision.kind).toBe('paid');
  });

  it('matches a Test arrival without address against a Test lock without one', () => {
    expect(judgeArrival(testLock, arrival({ toAddress: null }), fresh).kind).toBe('paid');
  });

  it('is paid over the full value too', () => {
    expect(judgeArrival(testLock, arrival({ valueCoin: '25.000000' }), fresh).kind).toBe('paid');
  });
});

describe('the 90% threshold', () => {
  it('is met by exactly 90.00%', () => {
    expect(judgeArrival(testLock, arrival({ valueCoin: '9.000000' }), fresh).kind).toBe('paid');
    expect(judgeArrival({ ...testLock, usdValue: '10.01' }, arrival({ valueCoin: '9.009' }), fresh).kind).toBe('paid');
  });

  it('pays exactly 90.00% and holds 89.99% of an order whose 90% is not whole cents, in each coin', () => {
    const lock = { ...testLock, usdValue: '21.55' };
    for (const coin of ['polygon_usdc', 'polygon_usdt']) {
      expect(judgeArrival(lock, arrival({ coin, valueCoin: '19.395' }), fresh).kind).toBe('paid');
      expect(judgeArrival(lock, arrival({ coin, valueCoin: '19.394999' }), fresh)).toMatchObject({ kind: 'held', holdAcceptable: true });
    }
    // 89.99% of 21.55 USD is 19.392845.
    expect(judgeArrival(lock, arrival({ coin: 'polygon_usdt', valueCoin: '19.392845' }), fresh)).toMatchObject({
      kind: 'held',
      holdReason: '19.392845 USDT arrived, 19.40 needed (90% of 21.55 USD).',
    });
  });

  it('says in plain words what arrived and what was needed', () => {
    expect(judgeArrival({ ...testLock, usdValue: '21.55' }, arrival({ valueCoin: '18.4' }), fresh)).toMatchObject({
      holdReason: '18.40 USDC arrived, 19.40 needed (90% of 21.55 USD).',
    });
  });

  it('holds anything below, acceptably, without rounding what arrived up to what was needed', () => {
    expect(judgeArrival(testLock, arrival({ valueCoin: '8.999999' }), fresh)).toMatchObject({
      kind: 'held',
      holdAcceptable: true,
      holdReason: '8.999999 USDC arrived, 9.00 needed (90% of 10.00 USD).',
    });
    expect(judgeArrival({ ...testLock, usdValue: '10.01' }, arrival({ valueCoin: '9.008999' }), fresh).kind).toBe('held');
  });

  it('explains an underpayment in plain words and keeps what arrived', () => {
    expect(judgeArrival(testLock, arrival({ valueCoin: '5.000000' }), fresh)).toEqual({
      kind: 'held',
      holdReason: '5.00 USDC arrived, 9.00 needed (90% of 10.00 USD).',
      holdAcceptable: true,
      settlement: {
        coin: 'polygon_usdc',
        valueCoin: '5.000000',
        merchantReceived: null,
        txidIn: TXID_IN,
        txidOut: null,
        payoutWallet: WALLET,
      },
    });
  });

  it('holds nothing arriving at all', () => {
    expect(judgeArrival(testLock, arrival({ valueCoin: '0' }), fresh)).toMatchObject({
      kind: 'held',
      holdAcceptable: true,
      holdReason: '0.00 USDC arrived, 9.00 needed (90% of 10.00 USD).',
    });
  });
});

describe('evidence that the money went elsewhere', () => {
  it('holds a transaction used before, not acceptably', () => {
    expect(judgeArrival(testLock, arrival(), { txidUsedBefore: true })).toMatchObject({
      kind: 'held',
      holdAcceptable: false,
      holdReason: `Transaction ${TXID_IN} was already used for a payment; a transaction counts only once.`,
      settlement: { coin: 'polygon_usdc', valueCoin: '9.700000', txidIn: TXID_IN, merchantReceived: null },
    });
  });

  it('holds money at another deposit address, not acceptably', () => {
    expect(judgeArrival(liveLock, arrival({ toAddress: '0xd000000000000000000000000000000000000002' }), fresh)).toMatchObject({
      kind: 'held',
      holdAcceptable: false,
      holdReason: `The money arrived at 0xd000000000000000000000000000000000000002, not at this payment's deposit address ${DEPOSIT}.`,
    });
    expect(judgeArrival(liveLock, arrival({ toAddress: null }), fresh)).toMatchObject({ kind: 'held', holdAcceptable: false });
    expect(judgeArrival(testLock, arrival({ toAddress: DEPOSIT }), fresh)).toMatchObject({ kind: 'held', holdAcceptable: false });
  });

  it('holds money forwarded anywhere but the merchant’s wallet, not acceptably', () => {
    expect(judgeArrival(testLock, arrival({ forwardedTo: '0x2222222222222222222222222222222222222222' }), fresh)).toMatchObject({
      kind: 'held',
      holdAcceptable: false,
      holdReason: `The money was forwarded to 0x2222222222222222222222222222222222222222, not to the merchant's payout wallet ${WALLET}.`,
    });
    expect(judgeArrival(testLock, arrival({ forwardedTo: null }), fresh)).toMatchObject({
      kind: 'held',
      holdAcceptable: false,
      holdReason: `The money was forwarded to no wallet, not to the merchant's payout wallet ${WALLET}.`,
    });
  });

  it('holds a coin that is not a dollar coin, not acceptably, whatever the amount', () => {
    expect(judgeArrival(testLock, arrival({ coin: 'polygon_matic', valueCoin: '100' }), fresh)).toMatchObject({
      kind: 'held',
      holdAcceptable: false,
      holdReason: '100.000000 polygon_matic arrived, which is not a dollar coin (polygon_usdc or polygon_usdt).',
      settlement: { coin: 'polygon_matic', valueCoin: '100.000000', merchantReceived: null },
    });
  });

  it('outweighs an underpayment: short and misdirected is never acceptable', () => {
    const decision = judgeArrival(testLock, arrival({ valueCoin: '1.000000', forwardedTo: '0x2222' }), fresh);
    expect(decision).toMatchObject({ kind: 'held', holdAcceptable: false });
    expect(decision.kind === 'held' && decision.holdReason).toMatch(/forwarded to 0x2222/);
  });
});

describe('a decline', () => {
  it('fails with no settlement fields', () => {
    expect(judgeDecline()).toEqual({ kind: 'failed' });
  });
});

describe('recording an arrival', () => {
  it('writes its amount with six decimals, cutting extra digits', () => {
    expect(normalizeArrival(arrival({ valueCoin: '9.7' })).valueCoin).toBe('9.700000');
    expect(normalizeArrival(arrival({ valueCoin: '9.70000099' })).valueCoin).toBe('9.700000');
  });

  it('refuses a malformed amount as a processor fault', () => {
    expect(() => normalizeArrival(arrival({ valueCoin: '-1' }))).toThrow(/malformed amount/);
    expect(() => judgeArrival(testLock, arrival({ valueCoin: 'ten' }), fresh)).toThrow(/malformed amount/);
  });
});
