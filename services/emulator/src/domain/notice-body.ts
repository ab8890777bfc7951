import { Decimal } from '@hc/money';
import type { EmulatedPayment } from './ledger.ts';

/**
 * How the processor reports a payment: at once, late, never, twice (one id), out of order (two ids: a
 * re-sent copy signed now arrives before the original signed a minute earlier), or with an amount the
 * chain does not show.
 */
export const NOTICE_MODES = ['on-time', 'late', 'never', 'mismatch', 'duplicate', 'out-of-order'] as const;
export type NoticeMode = (typeof NOTICE_MODES)[number];

/** The notice body settlement receives (docs/adr/0016): what arrived where, and where it was forwarded. */
export interface NoticeBody {
  readonly type: 'transfer.forwarded';
  readonly payment_id: string;
  readonly deposit_address: string;
  readonly txid_in: string;
  readonly coin: string;
  readonly value_coin: string;
  readonly forwarded_to: string | null;
  readonly txid_out: string | null;
  readonly value_forwarded: string | null;
}

export function noticeBody(payment: EmulatedPayment, mode: NoticeMode): NoticeBody {
  // A mismatching notice reports one coin unit less than the chain shows.
  const valueCoin = mode === 'mismatch' ? new Decimal(payment.valueCoin).minus(1).toFixed(6) : payment.valueCoin;
  return {
    type: 'transfer.forwarded',
    payment_id: payment.paymentId,
    deposit_address: payment.toAddress,
    txid_in: payment.txidIn,
    coin: payment.coin,
    value_coin: valueCoin,
    forwarded_to: payment.forwardedTo,
    txid_out: payment.txidOut,
    value_forwarded: payment.valueForwarded,
  };
}
