import { describe, expect, it } from '@jest/globals';
import { Ledger, LedgerError } from './ledger.ts';

const WALLET = '0x1111111111111111111111111111111111111111';
const now = new Date('2026-03-01T12:00:00.000Z');

describe('the emulated processor and chain', () => {
  it('gives a payment one deposit address, the same on a repeat', () => {
    const ledger = new Ledger();
    const first = ledger.depositAddressFor('pay_1', 150);
    expect(first.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(ledger.depositAddressFor('pay_1', 0)).toEqual(first);
  });

  it('puts a payment on chain and forwards it less the fee, rounded down to six decimals', () => {
    const ledger = new Ledger();
    const { address } = ledger.depositAddressFor('pay_1', 150);
    const paid = ledger.pay({ paymentId: 'pay_1', amount: '21.55', coin: 'polygon_usdt' }, now, WALLET);
    expect(paid).toMatchObject({ valueCoin: '21.550000', forwardedTo: WALLET, valueForwarded: '21.226750', toAddress: address });
    expect(ledger.transfersTo(address.toUpperCase().replace('0X', '0x'))).toEqual([
      { txid: paid.txidIn, coin: 'polygon_usdt', from: null, value: '21.550000', to: address, blockTime: now },
    ]);
  });

  it('shows the forwarding as a transaction of its own, from the deposit address to the wallet', () => {
    const ledger = new Ledger();
    const { address } = ledger.depositAddressFor('pay_1', 150);
    const paid = ledger.pay({ paymentId: 'pay_1', amount: '21.55', coin: 'polygon_usdt' }, now, WALLET);
    expect(ledger.transaction(paid.txidOut!.toUpperCase().replace('0X', '0x'))).toEqual([
      { txid: paid.txidOut, coin: 'polygon_usdt', from: address, value: '21.226750', to: WALLET, blockTime: now },
    ]);
    expect(ledger.transaction(paid.txidIn)).toEqual(ledger.transfersTo(address));
    expect(ledger.transaction(`0x${'0'.repeat(64)}`)).toEqual([]);
  });

  it('reports another payment’s transaction without a new transfer when told to reuse it', () => {
    const ledger = new Ledger();
    ledger.depositAddressFor('pay_1', 0);
    const second = ledger.depositAddressFor('pay_2', 0);
    const first = ledger.pay({ paymentId: 'pay_1', amount: '5', coin: 'polygon_usdc' }, now, WALLET);
    expect(ledger.pay({ paymentId: 'pay_2', amount: '5', coin: 'polygon_usdc', reuseTxidOf: 'pay_1' }, now, WALLET).txidIn).toBe(
      first.txidIn,
    );
    expect(ledger.transfersTo(second.address)).toEqual([]);
  });

  it('keeps the money at the deposit address when it was told no wallet to forward to', () => {
    const ledger = new Ledger();
    const { address } = ledger.depositAddressFor('pay_1', 150);
    const kept = ledger.pay({ paymentId: 'pay_1', amount: '5', coin: 'polygon_usdc' }, now, null);
    expect(kept).toMatchObject({ forwardedTo: null, txidOut: null, valueForwarded: null });
    expect(ledger.transfersTo(address)).toHaveLength(1);
  });

  it('refuses a payment without a deposit address and a malformed amount', () => {
    const ledger = new Ledger();
    expect(() => ledger.pay({ paymentId: 'pay_9', amount: '5', coin: 'polygon_usdc' }, now, WALLET)).toThrow(LedgerError);
    ledger.depositAddressFor('pay_9', 0);
    expect(() => ledger.pay({ paymentId: 'pay_9', amount: '1e3', coin: 'polygon_usdc' }, now, WALLET)).toThrow(LedgerError);
    expect(() => ledger.pay({ paymentId: 'pay_9', amount: '0', coin: 'polygon_usdc' }, now, WALLET)).toThrow(LedgerError);
  });
});
