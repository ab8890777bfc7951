import { describe, expect, it } from '@jest/globals';
import type { Payment } from '@hc/proto/checkout/v1/payment';
import { feeInCoin, paymentCsvRow } from './payment-export.ts';

describe('the payments CSV row', () => {
  it('has the API fields and the settlement columns, with the fee as arrived less forwarded', () => {
    const payment = {
      id: 'pay_1',
      status: 'paid',
      amount: '19.90',
      currency: 'usd',
      description: 'Blue mug',
      createdAt: 1_764_000_000_000n,
      paidAt: 1_764_000_060_000n,
      mode: 'live',
      holdAcceptable: false,
      coin: 'USDC',
      valueCoin: '19.90',
      merchantReceived: '19.502',
      txidIn: '0xin',
      txidOut: '0xout',
      payoutWallet: '0xw',
    } as Payment;
    expect(paymentCsvRow(payment)).toMatchObject({
      id: 'pay_1',
      status: 'paid',
      amount: '19.90',
      created: '2025-11-24T16:00:00.000Z',
      paid_at: '2025-11-24T16:01:00.000Z',
      livemode: 'true',
      value_coin: '19.90',
      merchant_received: '19.502',
      fee_coin: '0.398',
      reference: '',
    });
  });

  it('computes the fee in decimals, never floats, and leaves it empty before settlement', () => {
    expect(feeInCoin('0.3', '0.1')).toBe('0.2');
    expect(feeInCoin(undefined, '1')).toBe('');
  });
});
